"""Lowerings of control flow: `If`/`StatefulIf` → `lax.cond` (a select when both branches
are small and pure), `While` → `lax.fori_loop` when its trip count is
known when compiling (`counted_loops`), else `lax.while_loop` (a bounded `lax.scan` with
`maximum_iterations`), `Call` inlined.

Contract:
- Branches and bodies are lowered with the context's state (Variables, PRNG key, error
  code) carried through, so effects inside them happen exactly when they run.
- A predicate known when compiling lowers only the branch it takes. Branches without
  stateful ops, control flow or calls, of at most `SELECT_MAX_OPS` ops each, are both
  computed and selected (`jnp.where`): cheaper than a conditional in XLA, and exact, as
  their checks are guarded by the predicate (`LoweringContext.guard`).
- A loop runs rotated: the condition is computed before the loop and after every body,
  and carried, so a condition graph with effects runs exactly as often as in the numpy
  runtime. A failed check (an error raised on return) also ends the loop, as the numpy
  runtime's exception would: the loop carries one int32 status (`_status`: run again,
  done, or the failed check's code). A counted loop has no check left in its body (or
  is not lowered as one), and its counter's range proves the index checks on it.
- XLA needs each loop variable and branch output to keep one shape and dtype. A loop
  whose variable changes shape (a list appended to) while its condition is known at
  trace time every iteration (a loop over a tensor of static length) is unrolled, up to
  `UNROLL_MAX_ITERATIONS`; any other change of shape (a list grown a data-dependent
  number of times, a branch making a longer list) is a LoweringError naming the
  variable (the user's name) and the op's file:line.
"""

import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.xla import counted_loops, lax_control
from autograph_py.runtime.xla.lowering import NO_ERROR, is_known, lower_graph
from autograph_py.runtime.xla.table import lowering_error, register_lowering


def typed(values, specs):
    """`values` as JAX arrays of the dtypes in `specs` ((shape, dtype) pairs)."""
    return tuple(jnp.asarray(v, dtype.np_dtype) for v, (_, dtype) in zip(values, specs))


def _variable_names(body_graph, count):
    """The user's names of a loop's first `count` variables (its body's inputs)."""
    return ["'" + p.op.name.removeprefix("<").split("_capture")[0] + "'"
            for p in body_graph.inputs[:count]]


def _output_names(op, specs):
    """The user's names of an If's outputs (`cond` keeps them beside its true branch),
    else their positions (a graph read back from its serialized form)."""
    names = op.attrs["then_graph"].output_names
    if names is None or len(names) != len(specs):
        return [f"output {i}" for i in range(len(specs))]
    return names


def _mismatch(op, error, names, what):
    """A LoweringError for a CarryMismatch: which value changed, from what to what."""
    # The carry is (values, (variables, key, error)): a position past the values is a
    # Variable's (the key and the error code never change).
    index = error.index
    if index < len(names):
        who = names[index]
    else:
        who = "a Variable assigned inside"
    return lowering_error(op, f"{what} {who} is {error.before} on one path and "
                              f"{error.after} on another; XLA needs one shape and dtype "
                              "(a list appended in a loop, or grown in one branch only, "
                              "changes shape)")


SELECT_MAX_OPS = 16
_NESTING_OPS = frozenset({"If", "StatefulIf", "While", "Call", "XlaCall", "WhileGrad"})


def _selectable(graph):
    ops = graph.get_operations()
    return not graph.stateful_ops and len(ops) <= SELECT_MAX_OPS and \
        not any(op.type in _NESTING_OPS for op in ops)


def _select(ctx, op, pred, captured, specs):
    outer = ctx.guard
    results = []
    for branch, taken in (("then", pred), ("else", ~pred)):
        ctx.guard = taken if outer is None else outer & taken
        indices = op.attrs[branch + "_indices"]
        results.append(typed(lower_graph(ctx, op.attrs[branch + "_graph"],
                                         [captured[i] for i in indices]), specs))
    ctx.guard = outer
    try:
        lax_control.check_same_types(*results)
    except lax_control.CarryMismatch as e:
        raise _mismatch(op, e, _output_names(op, specs), "the conditional's") from None
    return tuple(jnp.where(pred, a, b) for a, b in zip(*results))


@register_lowering("If", "StatefulIf")
def _if(ctx, op, pred, *captured):
    attrs = op.attrs
    specs = attrs["output_specs"]
    if not is_known(pred) and _selectable(attrs["then_graph"]) and \
            _selectable(attrs["else_graph"]):
        return _select(ctx, op, pred, captured, specs)

    def branch(graph, indices):
        def run(state):
            ctx.set_state(state)
            outputs = lower_graph(ctx, graph, [captured[i] for i in indices])
            return typed(outputs, specs), ctx.state()

        return run

    try:
        outputs, state = lax_control.cond(
            pred, branch(attrs["then_graph"], attrs["then_indices"]),
            branch(attrs["else_graph"], attrs["else_indices"]), ctx.state())
    except lax_control.CarryMismatch as e:
        raise _mismatch(op, e, _output_names(op, specs), "the conditional's") from None
    ctx.set_state(state)
    return tuple(outputs)


UNROLL_MAX_ITERATIONS = 256


def _truth(value):
    """A loop condition as a bool, kept a numpy value when it is known at trace time."""
    return np.asarray(value, bool) if is_known(value) else jnp.asarray(value, bool)


@register_lowering("While")
def _while(ctx, op, *inputs):
    attrs = op.attrs
    num_vars, specs = attrs["num_vars"], attrs["output_specs"]
    captured = inputs[num_vars:]
    cond_extra = [captured[i] for i in attrs["cond_indices"]]
    body_extra = [captured[i] for i in attrs["body_indices"]]
    cond_graph, body_graph = attrs["cond_graph"], attrs["body_graph"]

    def test(values):
        return _truth(lower_graph(ctx, cond_graph, list(values) + cond_extra)[0])

    def step(values):
        return lower_graph(ctx, body_graph, list(values) + body_extra)

    counter = counted_loops.find_counter(attrs, inputs, body_extra)
    if counter is not None and counter.runs is not None:
        before = ctx.state(), len(ctx.checks)
        try:
            return tuple(counted_loops.run_counted(
                ctx, counter, typed(inputs[:num_vars], specs),
                lambda values: typed(step(values), specs)))
        except (counted_loops.Unfixable, lax_control.CarryMismatch):
            # Nothing was emitted: lower the general loop instead.
            ctx.set_state(before[0])
            del ctx.checks[before[1]:]

    checked = []  # whether the body (or the condition in it) has a check
    ctx.while_loops |= attrs["maximum_iterations"] is None

    def body(carry):
        _, values, (variables, key) = carry
        # The loop runs only while no check has failed: each iteration starts with none.
        ctx.set_state((variables, key, NO_ERROR))
        if counter is not None:
            ctx.set_range(values[counter.index], counter.first, counter.last)
        values = typed(step(values), specs)
        status = _status(test(values), ctx.error)
        variables, key, error = ctx.state()
        checked.append(error is not NO_ERROR)
        return status, values, (variables, key)

    before = ctx.state()
    values = typed(inputs[:num_vars], specs)
    going = test(values) & (ctx.error == 0)
    variables, key, error = ctx.state()
    names = [None] + _variable_names(body_graph, num_vars)  # carry[0] is the status
    try:
        status, values, (variables, key) = lax_control.while_loop(
            lambda carry: carry[0] == _RUNNING, body,
            (_status(going, NO_ERROR), values, (variables, key)), attrs["maximum_iterations"])
    except lax_control.CarryMismatch as e:
        ctx.set_state(before)  # the failed trace left tracers of its own in the state
        values = _unrolled(inputs[:num_vars], test, step, attrs["maximum_iterations"])
        if values is None:
            raise _mismatch(op, e, names, "loop variable") from None
        return tuple(values)
    if any(checked):  # a negative status is the code of the check that ended the loop
        error = jnp.where(status < 0, -status, error)
    ctx.set_state((variables, key, error))
    return tuple(values)


_RUNNING = 1


def _status(going, error):
    """The loop's one carried control value: 1 to run the body again, 0 when the
    condition ends the loop, -code when check `code` failed in the last iteration.
    One scalar, so XLA computes it in one fused kernel: a loop body of more than 8
    kernels runs on XLA's concurrent executor, which costs about 0.6 µs an iteration
    (a second carried flag made the RNN benchmark's loop 2x slower)."""
    running = jnp.asarray(going, jnp.int32)
    if error is NO_ERROR:  # no check in the body
        return running
    return jnp.where(error != 0, -error, running)


def _unrolled(values, test, step, limit):
    """The loop run while tracing, one body per iteration, when a loop variable changes
    shape (a list appended to) but the condition is known at trace time every time (a
    loop over a tensor of static length): XLA sees straight-line code with exact shapes.
    None when the condition is computed at run time or the loop runs longer than
    UNROLL_MAX_ITERATIONS."""
    going, count = test(values), 0
    while limit is None or count < limit:
        if not is_known(going) or count >= UNROLL_MAX_ITERATIONS:
            return None
        if not going:
            break
        values = step(values)
        going, count = test(values), count + 1
    return values


@register_lowering("Call")
def _call(ctx, op, *inputs):
    return tuple(lower_graph(ctx, op.attrs["graph"], list(inputs)))
