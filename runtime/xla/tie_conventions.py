"""Elementwise functions whose derivative at a kink or an edge is the numpy runtime's
gradient rule (TensorFlow's convention), not the one JAX's differentiation would take.

Contract: `relu`, `absolute`, `maximum`, `minimum` and `power` compute what `jnp.maximum`,
`jnp.abs`, ... compute; under `jax.jvp`/`jax.vjp` (the gradient of a compiled call
recorded by a tape, runtime/xla/pullback.py) their derivatives are those of
runtime/gradients:
- `relu`: slope 0 at 0 (`x > 0`);
- `absolute`: slope `sign(x)`, so 0 at 0 (JAX takes 1);
- `maximum(x, y)` / `minimum(x, y)`: a tie's whole gradient goes to `x` (JAX splits it);
- `power(x, y)`: `y * x**(y - 1)` for the base, and no gradient for the exponent where
  the base is not positive (JAX's `x**y * log(x)` is nan there).
Each tangent is linear in the input tangents, so JAX transposes it for reverse mode.
"""

import jax
import jax.numpy as jnp


def _select(mask, a, b):
    """`a` where `mask`, else `b`, broadcast to the result's shape (tangents differ in
    shape when the inputs broadcast)."""
    return jnp.where(mask, a, b)


@jax.custom_jvp
def relu(x):
    return jnp.maximum(x, jnp.zeros((), x.dtype))


@relu.defjvp
def _relu_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return relu(x), _select(x > 0, dx, jnp.zeros_like(dx))


@jax.custom_jvp
def absolute(x):
    return jnp.abs(x)


@absolute.defjvp
def _absolute_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    return absolute(x), dx * jnp.sign(x).astype(dx.dtype)


def _ties_to_first(fn, first_wins):
    """`fn(x, y)` (an extreme of two) whose tangent is x's where `first_wins(x, y)`,
    y's elsewhere: a tie's whole gradient goes to x."""
    picked = jax.custom_jvp(fn)

    @picked.defjvp
    def _jvp(primals, tangents):
        (x, y), (dx, dy) = primals, tangents
        return picked(x, y), _select(first_wins(x, y), dx, dy)

    return picked


maximum = _ties_to_first(jnp.maximum, jnp.greater_equal)
minimum = _ties_to_first(jnp.minimum, jnp.less_equal)


@jax.custom_jvp
def power(x, y):
    return jnp.power(x, y)


@power.defjvp
def _power_jvp(primals, tangents):
    (x, y), (dx, dy) = primals, tangents
    out = power(x, y)
    positive = x > 0
    log_x = jnp.where(positive, jnp.log(jnp.where(positive, x, jnp.ones_like(x))), 0)
    return out, dx * (y * jnp.power(x, y - 1)) + dy * (out * log_x)
