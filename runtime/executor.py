"""The executor: compile a plan for (graph, fetches, feeds) once, then run it many times.

Contract:
- `Plan(graph, fetch_tensors, target_ops, feed_tensors)` selects only the ops the fetches
  and targets need (a fed tensor prunes its producer), in graph (topological) order,
  names every value it passes around, and records when each is last read so `run` frees
  intermediates as soon as they are dead.
- `Plan.run(ctx, feed_values)` returns the fetched values. A kernel that raises is
  reported as an `OpError` naming the op, its type, its inputs and the user's source line.
- `Plan.code` is the Python source of the function the plan runs (`Plan.function`), for
  reading exactly what runs; `Plan.steps` are the `Step`s it was generated from.
- Subgraphs (branch and loop bodies) run through `run_subgraph(ctx, graph, inputs)`,
  which caches their plan on the graph; their stateful ops always run, in program order.
  Run contexts (a Session, the eager context) take it as their `run_subgraph` method.
  `subgraph_runner(ctx, graph)` gives a callable for running one subgraph many times.

How a plan runs: one generated Python function `run(ctx, feeds)`, one line per op
calling its kernel on local variables named after the ops that make them (`layer_add =
Add(x, layer_square)`): kernels bound under their op type, attributes as keyword
literals (or named constants), `ctx` first for kernels that need it, `Const` values read
as globals, elementwise kernels specialized to the inputs' static dtypes, a `del` after
the last reader of each intermediate, and one `try/except` around the body that maps
the failing line back to its op for the error.
"""

import keyword
import math
import os
import re
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from autograph_py.runtime.errors import InvalidArgumentError, OpError, format_location, op_error
from autograph_py.runtime.graph_walk import ops_reaching

# Generated code gets a file name inside the library, so `errors.user_location()` never
# takes a plan's frame for the user's code.
_FILENAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "<compiled plan>")
# Names the generated function uses itself; values and kernels never take them.
_RESERVED = frozenset({"run", "ctx", "feeds", "e", "OpError", "failed"})
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])([A-Z])")  # StridedSlice -> strided_slice


class MissingFeedError(InvalidArgumentError):
    pass


class Step(NamedTuple):
    """One op of a plan: what its line in the generated function is made from."""

    op: object                 # the Operation
    kernel: Callable           # the op's kernel, or one specialized to its input dtypes
    inputs: tuple[str, ...]    # the values it reads
    outputs: tuple[str, ...]   # the values it makes
    frees: tuple[str, ...]     # the values that are dead once it has run


class Plan:
    def __init__(self, graph, fetch_tensors, target_ops=(), feed_tensors=()):
        self.graph = graph
        fed = {id(t): t for t in feed_tensors}
        self.ops = ops = ops_reaching(fetch_tensors, target_ops, fed, control_inputs=True)
        placeholders = [op for op in ops if op.type == "Placeholder"]
        if placeholders:
            op = placeholders[0]
            t = op.outputs[0]
            raise MissingFeedError(
                f"you must feed a value for placeholder {t.name} (dtype {t.dtype.name}, shape "
                f"{t.shape}), created at {format_location(op.location)}")

        namer = _Namer()
        names = {}  # id(tensor) -> the name of its value in the generated function
        for t in feed_tensors:
            names.setdefault(id(t), namer.value(t))
        made = {}  # id(tensor) -> the name an op binds it to
        for op in ops:
            for t in op.outputs:
                if id(t) in fed:  # the feed wins: the op's own value is bound, never read
                    made[id(t)] = namer.fresh(f"unused_{names[id(t)]}")
                else:
                    names[id(t)] = made[id(t)] = namer.value(t)
        self.feed_names = [names[id(t)] for t in feed_tensors]
        self.fetch_names = [names[id(t)] for t in fetch_tensors]

        last_reader = {}
        for step, op in enumerate(ops):
            for t in op.inputs:
                last_reader[names[id(t)]] = step
        frees = [[] for _ in ops]
        for name, step in last_reader.items():
            frees[step].append(name)
        for step, op in enumerate(ops):
            for t in op.outputs:  # outputs nobody reads die at once
                if made[id(t)] not in last_reader:
                    frees[step].append(made[id(t)])
        # Fetched values are returned; Const values are globals of the generated function.
        kept = set(self.fetch_names) | {made[id(op.outputs[0])] for op in ops
                                        if op.type == "Const"}
        self.steps = [Step(op, _kernel(op), tuple(names[id(t)] for t in op.inputs),
                           tuple(made[id(t)] for t in op.outputs),
                           tuple(sorted(n for n in frees[step] if n not in kept)))
                      for step, op in enumerate(ops)]
        self.code, self.function = _compile(self, namer)

    def run(self, ctx, feed_values):
        return self.function(ctx, feed_values)


class _Namer:
    """Unique Python identifiers for the generated function, readable ones: a value is
    named after its op (`layer/StridedSlice_1` -> `layer_strided_slice_1`), a kernel
    after its op type (`StridedSlice`)."""

    def __init__(self):
        self._used = set(_RESERVED)
        self._kernels = {}  # id(kernel) -> name

    def fresh(self, base):
        base = re.sub(r"\W", "_", base, flags=re.ASCII)
        if not base or base[0].isdigit():
            base = "_" + base
        name, n = base, 1
        while name in self._used or keyword.iskeyword(name):
            name, n = f"{base}_{n}", n + 1
        self._used.add(name)
        return name

    def value(self, tensor):
        op = tensor.op
        suffix = "" if len(op.outputs) == 1 else f"_{tensor.value_index}"
        return self.fresh(_CAMEL_HUMP.sub(r"_\1", op.name).lower() + suffix)

    def kernel(self, kernel, op_type):
        name = self._kernels.get(id(kernel))
        if name is None:
            name = self._kernels[id(kernel)] = self.fresh(op_type)
        return name


def _kernel(op):
    """The op's kernel, or a faster one for its inputs' static dtypes (`specialize`)."""
    kernel = op.opdef.kernel
    specialize = getattr(kernel, "specialize", None)
    if specialize is None or op.attrs or not op.inputs:
        return kernel
    return specialize(*(t.dtype.np_dtype for t in op.inputs)) or kernel


def _compile(plan, namer):
    """(source, function) of `run(ctx, feeds) -> [fetched values]` for the plan."""
    namespace = {"OpError": OpError}
    lines = ["def run(ctx, feeds):"]
    if plan.feed_names:
        lines.append(f"    {', '.join(plan.feed_names)}, = feeds")
    lines.append("    try:")
    line_steps = {}  # line number -> step index, to name the op that failed
    for index, step in enumerate(plan.steps):
        op = step.op
        if op.type == "Const":  # its value is a global of the generated function
            namespace[step.outputs[0]] = op.attrs["value"]
            continue
        kernel = namer.kernel(step.kernel, op.type)
        namespace[kernel] = step.kernel
        call = f"{kernel}({', '.join(_arguments(step, namer, namespace))})"
        dead = set(step.frees)
        single = op.opdef.num_outputs == 1  # else the kernel returns a tuple
        if single and step.outputs[0] in dead:  # never bind what nobody reads
            dead.discard(step.outputs[0])
            statement = call
        elif single:
            statement = f"{step.outputs[0]} = {call}"
        elif step.outputs:
            statement = f"{', '.join(step.outputs)}, = {call}"
        else:
            statement = call
        line_steps[len(lines) + 1] = index
        lines.append(f"        {statement}")
        if dead:
            lines.append(f"        del {', '.join(sorted(dead))}")
    if not line_steps:
        lines.append("        pass")
    lines += ["    except OpError:",
              "        raise",
              "    except Exception as e:",
              "        raise failed(e)",
              f"    return [{', '.join(plan.fetch_names)}]"]

    def failed(e):
        """The error to raise for `e`: an OpError naming the failing op (an
        InvalidArgumentError gets the op and its line appended instead)."""
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not code:
            tb = tb.tb_next
        index = line_steps.get(tb.tb_lineno) if tb is not None else None
        if index is None:
            return e
        op = plan.steps[index].op
        if isinstance(e, InvalidArgumentError):
            error = type(e)(f"{e}\n  (op '{op.name}' ({op.type}) created at "
                            f"{format_location(op.location)})")
            error.__suppress_context__ = True  # as `raise ... from None`
            return error
        error = op_error(op, e)
        error.__cause__ = e  # as `raise ... from e`
        return error

    namespace["failed"] = failed
    source = "\n".join(lines) + "\n"
    exec(compile(source, _FILENAME, "exec"), namespace)
    function = namespace["run"]
    code = function.__code__
    return source, function


def _arguments(step, namer, namespace):
    """The call's arguments: ctx, the inputs, the attributes as keyword arguments."""
    op = step.op
    args = (["ctx"] if op.opdef.needs_context else []) + list(step.inputs)
    if not all(name.isidentifier() and not keyword.iskeyword(name) for name in op.attrs):
        attrs = namer.fresh(f"{step.outputs[0] if step.outputs else op.type}_attrs")
        namespace[attrs] = op.attrs
        return args + [f"**{attrs}"]
    for name, value in op.attrs.items():
        literal = _literal(value)
        if literal is None:
            literal = namer.fresh(f"{step.outputs[0] if step.outputs else op.type}_{name}")
            namespace[literal] = value
        args.append(f"{name}={literal}")
    return args


def _literal(value):
    """Python source for `value` when it is a plain constant (ints, strings, tuples of
    them...), else None."""
    if value is None or type(value) in (bool, int, str):
        return repr(value)
    if type(value) is float:
        return repr(value) if math.isfinite(value) else None
    if type(value) is tuple:
        items = [_literal(v) for v in value]
        if None not in items:
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    return None


def subgraph_plan(graph):
    plan = getattr(graph, "_plan", None)
    if plan is None:
        plan = graph._plan = Plan(graph, graph.outputs, graph.stateful_ops, graph.inputs)
    return plan


def run_subgraph(ctx, graph, inputs):
    """The outputs of `graph` run on `inputs` in run context `ctx` (the `run_subgraph`
    method of the standard run contexts)."""
    return subgraph_plan(graph).function(ctx, inputs)


def _runs_plans_directly(ctx):
    """Whether `ctx.run_subgraph` only runs the plan, so callers may call the compiled
    function themselves. A wrapper that overrides it (the gradient of `While` records the
    body's inputs) keeps being called."""
    return getattr(type(ctx), "run_subgraph", None) is run_subgraph


def call_subgraph(ctx, graph, inputs):
    """`ctx.run_subgraph(graph, inputs)`, without the detour for a standard context."""
    if _runs_plans_directly(ctx):
        return subgraph_plan(graph).function(ctx, inputs)
    return ctx.run_subgraph(graph, inputs)


def subgraph_runner(ctx, graph):
    """`run(inputs)`, the same as `ctx.run_subgraph(graph, inputs)`, for repeated calls."""
    if _runs_plans_directly(ctx):
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
