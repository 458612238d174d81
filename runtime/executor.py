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
bound directly), a `del` after the last reader of each intermediate, and one
`try/except` around the body that maps the failing line back to its op for the error.
`Plan.steps` keeps the data the function was generated from.
"""

import keyword
import os

from runtime import recording, registry
from runtime.errors import InvalidArgumentError, OpError, format_location, op_error

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
        self.steps = [(op.opdef.kernel, tuple(slots[id(t)] for t in op.inputs),
                       tuple(slots[id(t)] for t in op.outputs), op.opdef.needs_context,
                       op.opdef.num_outputs == 1, op, tuple(frees[step]))
                      for step, op in enumerate(ops)]
        self.ops = ops
        self.function = _compile(self)

    def run(self, ctx, feed_values):
        return self.function(ctx, feed_values)


def _compile(plan):
    """The plan as one Python function `run(ctx, feeds) -> [fetched values]`."""
    const = registry._OPS.get("Const")
    const_kernel = const.kernel if const is not None else None
    namespace = {"OpError": OpError, "InvalidArgumentError": InvalidArgumentError}
    lines = ["def run(ctx, feeds):"]
    if plan.feed_slots:
        lines.append(f"    {''.join(f'v{s}, ' for s in plan.feed_slots)}= feeds")
    lines.append("    try:")
    line_steps = {}
    for step, (kernel, ins, outs, needs_ctx, single, op, frees) in enumerate(plan.steps):
        args = [f"v{s}" for s in ins]
        if kernel is const_kernel and single:
            namespace[f"c{step}"] = op.attrs["value"]
            call = f"c{step}"
        else:
            namespace[f"k{step}"] = kernel
            if needs_ctx:
                args.insert(0, "ctx")
            if all(name.isidentifier() and not keyword.iskeyword(name) for name in op.attrs):
                for j, (name, value) in enumerate(op.attrs.items()):
                    namespace[f"a{step}_{j}"] = value
                    args.append(f"{name}=a{step}_{j}")
            else:
                namespace[f"a{step}"] = op.attrs
                args.append(f"**a{step}")
            call = f"k{step}({', '.join(args)})"
        dead = set(frees)
        if single and outs[0] in dead:  # nobody reads the result: never bind it
            dead.discard(outs[0])
            statement = call
        elif single:
            statement = f"v{outs[0]} = {call}"
        elif outs:
            statement = f"{''.join(f'v{s}, ' for s in outs)}= {call}"
        else:
            statement = call
        line_steps[len(lines) + 1] = step
        lines.append(f"        {statement}")
        if dead:
            lines.append(f"        del {', '.join(f'v{s}' for s in sorted(dead))}")
    lines += ["    except OpError:",
              "        raise",
              "    except InvalidArgumentError as e:",
              "        raise invalid_argument(e) from None",
              "    except Exception as e:",
              "        raise failed(e) from e",
              f"    return [{', '.join(f'v{s}' for s in plan.fetch_slots)}]"]
    if not plan.steps:  # `try` needs a body
        lines.insert(lines.index("    try:") + 1, "        pass")

    def failing_op(e):
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not code:
            tb = tb.tb_next
        step = line_steps.get(tb.tb_lineno) if tb is not None else None
        return None if step is None else plan.steps[step][5]

    def invalid_argument(e):
        op = failing_op(e)
        if op is None:
            return e
        return type(e)(f"{e}\n  (op '{op.name}' ({op.type}) created at "
                       f"{format_location(op.location)})")

    def failed(e):
        op = failing_op(e)
        return e if op is None else op_error(op, e)

    namespace["invalid_argument"] = invalid_argument
    namespace["failed"] = failed
    exec(compile("\n".join(lines) + "\n", _FILENAME, "exec"), namespace)
    function = namespace["run"]
    code = function.__code__
    return function


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


def subgraph_runner(ctx, graph):
    """`run(inputs)`, the same as `ctx.run_subgraph(graph, inputs)`, for repeated calls."""
    if getattr(type(ctx), "run_subgraph", None) in _DIRECT_RUNNERS:
        function = subgraph_plan(graph).function
        return lambda inputs: function(ctx, inputs)
    run = ctx.run_subgraph
    return lambda inputs: run(graph, inputs)
