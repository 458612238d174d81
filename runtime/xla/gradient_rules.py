"""Lowering of `WhileGrad`, the reverse-mode gradient of a loop (control_flow_grad.py).

Contract: the numpy kernel's result: run the forward loop (counting its iterations n),
then for k = n-1 .. 0 map (loop variables at the start of iteration k, gradient of the
body's outputs) through the body-gradient graph, summing the gradients of captures and
Variables. XLA needs static shapes, so the loop variables are kept in a history buffer
of a fixed capacity (HISTORY_MAX_ITERATIONS iterations, fewer when they would take more
than HISTORY_MAX_BYTES); a loop that ran longer recomputes the variables of iteration k
from the initial values (k body steps): O(n^2) body runs for n iterations (docs/xla.md).
"""

import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.xla.control_flow_rules import typed
from autograph_py.runtime.xla.lowering import lower_graph
from autograph_py.runtime.xla.table import register_lowering
from jax import lax

HISTORY_MAX_ITERATIONS = 1024
HISTORY_MAX_BYTES = 64 << 20


def _history_capacity(values):
    """How many iterations' loop variables the history keeps: HISTORY_MAX_ITERATIONS,
    fewer when that would take more than HISTORY_MAX_BYTES."""
    size = sum(int(np.prod(jnp.shape(v))) * np.dtype(v.dtype).itemsize for v in values)
    return max(1, min(HISTORY_MAX_ITERATIONS, HISTORY_MAX_BYTES // max(size, 1)))


@register_lowering("WhileGrad")
def _while_grad(ctx, op, *inputs):
    attrs = op.attrs
    num_vars, diff_vars = attrs["num_vars"], attrs["diff_vars"]
    specs = attrs["forward_specs"]
    num_forward = len(inputs) - len(diff_vars)
    captured = inputs[num_vars:num_forward]
    cond_extra = [captured[i] for i in attrs["cond_indices"]]
    body_extra = [captured[i] for i in attrs["body_indices"]]
    limit = attrs["maximum_iterations"]
    initial = typed(inputs[:num_vars], specs)

    def test(values):
        return jnp.asarray(lower_graph(ctx, attrs["cond_graph"], list(values) + cond_extra)[0],
                           bool)

    def step(values):
        return typed(lower_graph(ctx, attrs["body_graph"], list(values) + body_extra), specs)

    capacity = _history_capacity(initial)
    history = tuple(jnp.zeros((capacity,) + jnp.shape(v), v.dtype) for v in initial)

    def record(history, n, values):
        return lax.cond(n < capacity,
                        lambda h: tuple(x.at[n].set(v) for x, v in zip(h, values)),
                        lambda h: h, history)

    def count_body(carry):
        _, values, n, history, state = carry
        ctx.set_state(state)
        history = record(history, n, values)  # the variables at the start of iteration n
        values = step(values)
        going = test(values) & (ctx.error == 0) & (True if limit is None else n + 1 < limit)
        return going, values, n + 1, history, ctx.state()

    going = test(initial) & (True if limit is None else limit > 0)
    ctx.while_loops = True
    _, _, n, history, state = lax.while_loop(
        lambda c: c[0], count_body, (going, initial, jnp.int32(0), history, ctx.state()))
    ctx.set_state(state)

    def recomputed(k, state):
        def advance(_, carry):
            values, state = carry
            ctx.set_state(state)
            return step(values), ctx.state()

        return lax.fori_loop(0, k, advance, (initial, state))

    def values_at(k):
        values, state = lax.cond(
            n <= capacity, lambda state: (tuple(h[k] for h in history), state),
            lambda state: recomputed(k, state), ctx.state())
        ctx.set_state(state)
        return values

    num_slots = len(diff_vars) + len(attrs["diff_extra"]) + len(attrs["variables"])
    likes = [body_extra[k] for k in attrs["diff_extra"]] + [
        ctx.read(v) for v in attrs["variables"]]
    grads = tuple(jnp.asarray(g) for g in inputs[num_forward:])
    totals = tuple(jnp.zeros(jnp.shape(like), jnp.asarray(like).dtype) for like in likes)

    def reverse_step(i, carry):
        grads, totals, state = carry
        ctx.set_state(state)
        values = values_at(n - 1 - i)
        found = [None] * num_slots
        outputs = lower_graph(ctx, attrs["grad_graph"], list(values) + body_extra + list(grads))
        for slot, value in zip(attrs["grad_slots"], outputs):
            found[slot] = value
        grads = tuple(jnp.zeros_like(values[i]) if g is None else jnp.asarray(g, values[i].dtype)
                      for i, g in zip(diff_vars, found))
        totals = tuple(t if g is None else t + g
                       for t, g in zip(totals, found[len(diff_vars):]))
        return grads, totals, ctx.state()

    grads, totals, state = lax.fori_loop(0, n, reverse_step, (grads, totals, ctx.state()))
    ctx.set_state(state)
    return tuple(grads) + tuple(totals)
