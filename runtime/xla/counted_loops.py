"""Loops whose trip count is known when compiling (a `for` over a tensor of static length,
`while i < 10` counting from a known start) lowered as `lax.fori_loop` with static
bounds: XLA then knows the trip count (no condition per iteration), reverse mode works,
and index checks on the counter are dropped where its range proves them.

Contract:
- `find_counter(attrs, inputs, body_extra)` recognizes the rotated loops our staging
  builds: the condition graph returns the carried condition (loop variable 0), which
  the body computes as `Less(k + step, limit)` for an integer loop variable k it
  updates as `k + step`, where the step (> 0) and limit are constants or values known
  while tracing, and so is k's start. It returns a `Counter`: the variable's index, its
  first and last value, and how often the body runs (the first condition true: at
  least once) when that is known: the first condition known, and the condition
  nothing but that comparison (a `break` ands a flag to it: then only the range is
  known, which still proves index checks). None when the loop has no such counter.
- `run_counted(ctx, counter, values, step)` runs `step` (loop values -> loop values)
  that often under `lax.fori_loop`, the counter registered with its range
  (`LoweringContext.set_range`) and the context's state carried. A loop must end at a
  failed check, which a fixed trip count cannot: when a check remains in the body (or
  a check before the loop may have failed), it raises `Unfixable` before emitting
  anything, and the caller lowers the general loop.
"""

from typing import NamedTuple

import numpy as np
from autograph_py.runtime.xla import lax_control
from autograph_py.runtime.xla.lowering import NO_ERROR, is_known
from jax import lax


class Counter(NamedTuple):
    index: int  # the loop variable
    first: int  # its first and last value in the body
    last: int
    runs: int | None  # how often the body runs; None: the loop may end earlier


class Unfixable(Exception):
    """The loop cannot run a fixed number of times (see the module docstring)."""


def _known(tensor, graph, extra, num_vars):
    """The value of `graph`'s `tensor` when known while tracing: a constant, or a
    captured value known outside."""
    if tensor.op.type == "Const":
        return np.asarray(tensor.op.attrs["value"], tensor.dtype.np_dtype)
    for placeholder, value in zip(graph.inputs[num_vars:], extra):
        if placeholder is tensor:
            return value if is_known(value) else None
    return None


def _conjuncts(tensor):
    """The tensors whose logical and `tensor` is (a break or return adds one)."""
    if tensor.op.type != "LogicalAnd":
        return [tensor]
    return [t for operand in tensor.op.inputs for t in _conjuncts(operand)]


def find_counter(attrs, inputs, body_extra):
    cond_graph, body = attrs["cond_graph"], attrs["body_graph"]
    num_vars = attrs["num_vars"]
    if cond_graph.outputs[0] is not cond_graph.inputs[0]:
        return None  # not rotated: the condition graph decides
    conjuncts = _conjuncts(body.outputs[0])
    for test in conjuncts:
        counter = _counter(test.op, body, inputs, body_extra, num_vars)
        if counter is None:
            continue
        if len(conjuncts) > 1 or not is_known(inputs[0]):
            # The loop may end earlier: only the counter's range is known.
            return counter._replace(runs=None)
        runs = counter.runs if bool(inputs[0]) else 0
        if attrs["maximum_iterations"] is not None:
            runs = min(runs, int(attrs["maximum_iterations"]))
        return counter._replace(runs=runs)
    return None


def _counter(test, body, inputs, body_extra, num_vars):
    """The Counter of `Less(k + step, limit)` (runs as if nothing else ended the loop)."""
    if test.type != "Less":
        return None
    advanced, limit = test.inputs
    update = advanced.op
    # (Identity comparisons: == on tensors makes an op.)
    index = next((i for i in range(1, num_vars) if body.outputs[i] is advanced), None)
    if update.type != "Add" or not advanced.dtype.is_integer or index is None:
        return None
    step = [t for t in update.inputs if t is not body.inputs[index]]
    if len(step) != 1:
        return None  # k + k, or an update not reading k
    step, limit = (_known(t, body, body_extra, num_vars) for t in (step[0], limit))
    first = inputs[index]
    if step is None or limit is None or not is_known(first) or \
            any(np.ndim(v) for v in (step, limit, first)) or step <= 0:
        return None
    step, limit, first = int(step), int(limit), int(first)
    # In the body: `first`, then values below the limit (k + step < limit held).
    last = max(first, first + (limit - 1 - first) // step * step)
    if last + step > np.iinfo(advanced.dtype.np_dtype).max:
        return None  # the update would wrap around and the range would not hold
    return Counter(index, first, last, max(1, -(-(limit - first) // step)))


def run_counted(ctx, counter, values, step):
    variables, key, error = ctx.state()
    if error is not NO_ERROR:
        raise Unfixable  # the loop must not run if a check before it failed

    def body(_, carry):
        values, (variables, key) = carry
        ctx.set_state((variables, key, NO_ERROR))
        ctx.set_range(values[counter.index], counter.first, counter.last)
        values = step(values)
        if ctx.error is not NO_ERROR:
            raise Unfixable
        variables, key, _ = ctx.state()
        after = (values, (variables, key))
        lax_control.check_same_types(carry, after)
        return after

    values, (variables, key) = lax.fori_loop(
        0, counter.runs, body, lax_control.as_arrays((values, (variables, key))))
    ctx.set_state((variables, key, error))
    return values
