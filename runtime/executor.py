"""The executor: compile a plan for (graph, fetches, feeds) once, then run it many times.

Contract:
- `Plan(graph, fetch_tensors, target_ops, feed_tensors)` selects only the ops the fetches
  and targets need (a fed tensor prunes its producer), orders them (graph order is
  topological), assigns every tensor a slot, and records when each slot is last read so
  `run` frees intermediates as soon as they are dead.
- `Plan.run(ctx, feed_values)` returns the fetched values. A kernel that raises is
  reported as an `OpError` naming the op, its type, its inputs and the user's source line.
- Subgraphs (branch and loop bodies) run through `run_subgraph`, which caches their plan
  on the graph; their stateful ops always run, in program order. `subgraph_runner(ctx,
  graph)` gives a callable for running one subgraph many times (a loop body).

How a plan runs: `Plan` compiles its steps into one generated Python function
(`Plan.function(ctx, feeds)`): one line per op calling its kernel on local variables
(attributes as keyword constants, `ctx` first for kernels that need it, `Const` values
bound directly, elementwise kernels specialized to the inputs' static dtypes), a `del`
after the last reader of each intermediate, and one `try/except` around the body that
maps the failing line back to its op for the error. `Plan.steps` keeps the data the
function was generated from.
"""

import keyword
import os
from functools import partial

from autograph_py.runtime import recording, registry
from autograph_py.runtime.errors import InvalidArgumentError, OpError, format_location, op_error

# Generated code gets a file name inside the library, so `errors.user_location()` never
# takes a plan's frame for the user's code.
_FILENAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "<compiled plan>")


class MissingFeedError(InvalidArgumentError):
    pass


class Plan:
    def __init__(self, graph, fetch_tensors, target_ops=(), feed_tensors=()):
        self.graph = graph
        fed = {id(t): t for t in feed_tensors}
        needed_ops = {}
        stack = [t for t in fetch_tensors if id(t) not in fed]
        op_stack = list(target_ops)
        while stack or op_stack:
            if stack:
                op = stack.pop().op
            else:
                op = op_stack.pop()
            if id(op) in needed_ops:
                continue
            needed_ops[id(op)] = op
            stack.extend(t for t in op.inputs if id(t) not in fed)
            op_stack.extend(op.control_inputs)
        ops = sorted(needed_ops.values(), key=lambda o: o.index)

        slots = {}
        for t in feed_tensors:
            slots.setdefault(id(t), len(slots))
        self.feed_slots = [slots[id(t)] for t in feed_tensors]
        for op in ops:
            for t in op.outputs:
                slots.setdefault(id(t), len(slots))
        self.num_slots = len(slots)
        self.fetch_slots = [slots[id(t)] for t in fetch_tensors]

        missing = [op for op in ops if op.type == "Placeholder"]
        if missing:
            op = missing[0]
            t = op.outputs[0]
            raise MissingFeedError(
                f"you must feed a value for placeholder {t.name} (dtype {t.dtype.name}, shape "
                f"{t.shape}), created at {format_location(op.location)}")

        last_use = {}
        for step, op in enumerate(ops):
            for t in op.inputs:
                last_use[slots[id(t)]] = step
        keep = set(self.fetch_slots)
        frees = [[] for _ in ops]
        for slot, step in last_use.items():
            if slot not in keep:
                frees[step].append(slot)
        for step, op in enumerate(ops):
            for t in op.outputs:  # outputs nobody reads die at once
                slot = slots[id(t)]
                if slot not in last_use and slot not in keep:
                    frees[step].append(slot)

        # (kernel, input slots, output slots, needs ctx, single output, op, freed slots)
        self.steps = [(_kernel(op), tuple(slots[id(t)] for t in op.inputs),
                       tuple(slots[id(t)] for t in op.outputs), op.opdef.needs_context,
                       op.opdef.num_outputs == 1, op, tuple(frees[step]))
                      for step, op in enumerate(ops)]
        self.ops = ops
        self.function = _compile(self)

    def run(self, ctx, feed_values):
        return self.function(ctx, feed_values)


def _kernel(op):
    """The op's kernel, or a faster one for its inputs' static dtypes (`specialize`)."""
    kernel = op.opdef.kernel
    specialize = getattr(kernel, "specialize", None)
    if specialize is None or op.attrs or not op.inputs:
        return kernel
    return specialize(*(t.dtype.np_dtype for t in op.inputs)) or kernel


def _compile(plan):
    """The plan as one Python function `run(ctx, feeds) -> [fetched values]`."""
    namespace = {"OpError": OpError}
    lines = ["def run(ctx, feeds):"]
    if plan.feed_slots:
        lines.append(f"    {''.join(f'v{s}, ' for s in plan.feed_slots)}= feeds")
    lines.append("    try:")
    line_steps = {}  # line number -> step index, to name the op that failed
    const = registry._OPS.get("Const")
    for step, (kernel, ins, outs, needs_ctx, single, op, frees) in enumerate(plan.steps):
        if const is not None and kernel is const.kernel:
            namespace[f"c{step}"] = op.attrs["value"]
            call = f"c{step}"
        else:
            namespace[f"k{step}"] = kernel
            call = f"k{step}({', '.join(_arguments(step, op, ins, needs_ctx, namespace))})"
        dead = set(frees)
        if single and outs[0] in dead:  # nobody reads the result: never bind it
            dead.discard(outs[0])
            statement = call
        elif outs:
            statement = f"{_targets(outs, single)} = {call}"
        else:
            statement = call
        line_steps[len(lines) + 1] = step
        lines.append(f"        {statement}")
        if dead:
            lines.append(f"        del {', '.join(f'v{s}' for s in sorted(dead))}")
    if not plan.steps:
        lines.append("        pass")
    lines += ["    except OpError:",
              "        raise",
              "    except Exception as e:",
              "        raise failed(e)",
              f"    return [{', '.join(f'v{s}' for s in plan.fetch_slots)}]"]

    def failed(e):
        """The error to raise for `e`: an OpError naming the failing op (an
        InvalidArgumentError gets the op and its line appended instead)."""
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not code:
            tb = tb.tb_next
        step = line_steps.get(tb.tb_lineno) if tb is not None else None
        if step is None:
            return e
        op = plan.steps[step][5]
        if isinstance(e, InvalidArgumentError):
            error = type(e)(f"{e}\n  (op '{op.name}' ({op.type}) created at "
                            f"{format_location(op.location)})")
            error.__suppress_context__ = True  # as `raise ... from None`
            return error
        error = op_error(op, e)
        error.__cause__ = e  # as `raise ... from e`
        return error

    namespace["failed"] = failed
    exec(compile("\n".join(lines) + "\n", _FILENAME, "exec"), namespace)
    function = namespace["run"]
    code = function.__code__
    return function


def _arguments(step, op, ins, needs_ctx, namespace):
    """The call's arguments: ctx, the input slots, the attributes as keyword constants."""
    args = (["ctx"] if needs_ctx else []) + [f"v{s}" for s in ins]
    if all(name.isidentifier() and not keyword.iskeyword(name) for name in op.attrs):
        for j, (name, value) in enumerate(op.attrs.items()):
            namespace[f"a{step}_{j}"] = value
            args.append(f"{name}=a{step}_{j}")
    else:
        namespace[f"a{step}"] = op.attrs
        args.append(f"**a{step}")
    return args


def _targets(outs, single):
    return f"v{outs[0]}" if single else "".join(f"v{s}, " for s in outs)


def subgraph_plan(graph):
    plan = getattr(graph, "_plan", None)
    if plan is None:
        plan = graph._plan = Plan(graph, graph.outputs, graph.stateful_ops, graph.inputs)
    return plan


def run_subgraph(ctx, graph, inputs):
    return subgraph_plan(graph).function(ctx, inputs)


def run_subgraph_method(ctx, graph, inputs):
    """`ctx.run_subgraph` of the standard run contexts (a Session, the eager context)."""
    return subgraph_plan(graph).function(ctx, inputs)


# Run contexts whose `run_subgraph` only runs the plan: `subgraph_runner` may call the
# compiled function itself. A wrapper that overrides `run_subgraph` (the gradient of
# `While` records the body's inputs) keeps being called.
_DIRECT_RUNNERS = {run_subgraph_method, recording.EagerContext.run_subgraph}


def call_subgraph(ctx, graph, inputs):
    """`ctx.run_subgraph(graph, inputs)`, without the detour for a standard context."""
    if getattr(type(ctx), "run_subgraph", None) in _DIRECT_RUNNERS:
        return subgraph_plan(graph).function(ctx, inputs)
    return ctx.run_subgraph(graph, inputs)


def subgraph_runner(ctx, graph):
    """`run(inputs)`, the same as `ctx.run_subgraph(graph, inputs)`, for repeated calls."""
    if getattr(type(ctx), "run_subgraph", None) in _DIRECT_RUNNERS:
        return partial(subgraph_plan(graph).function, ctx)
    return partial(ctx.run_subgraph, graph)


def forwarded_input(graph):
    """The index of the input that `graph`'s single output is, when the graph only
    forwards it (no stateful ops); else None. (A rotated loop's condition graph.)"""
    if len(graph.outputs) != 1 or graph.stateful_ops:
        return None
    output = graph.outputs[0]
    for i, t in enumerate(graph.inputs):
        if t is output:
            return i
    return None
