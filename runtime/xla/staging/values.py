"""What the JAX backend carries through `lax` control flow, and how it names it.

Contract:
- `is_carried(value)`: JAX arrays (tracers included), numpy values and Python numbers
  pass through `lax.cond`/`lax.while_loop` as arrays; every other leaf of the state (None,
  strings, functions, objects, `Undefined`) must leave a branch or an iteration as the
  very same object.
- `spec(value)` / `describe(spec)`: a carried value's (shape, dtype), in words
  (`a float32 scalar`, `an int32 array of shape (3,)`).
- `truth(value)`: Python's truth of a scalar as a bool array (`x != 0` for numbers); a
  non-scalar condition is a ValueError, a non-numeric one a TypeError.
"""

import numbers

import jax
import jax.numpy as jnp
import numpy as np


def is_carried(value):
    return isinstance(value, (jax.Array, numbers.Number, np.generic, np.ndarray))


def spec(value):
    array = jnp.asarray(value)
    return tuple(array.shape), np.dtype(array.dtype)


def describe(value_spec):
    shape, dtype = value_spec
    article = "an" if dtype.name[0] in "aeiou" else "a"
    if not shape:
        return f"{article} {dtype.name} scalar"
    return f"{article} {dtype.name} array of shape {shape}"


def truth(value, what="a condition"):
    array = jnp.asarray(value)
    if array.shape != ():
        raise ValueError(f"{what} must be a scalar, got {describe(spec(array))}; reduce it "
                         "with jnp.all or jnp.any")
    if array.dtype == jnp.bool_:
        return array
    if jnp.issubdtype(array.dtype, jnp.number):
        return array != 0
    raise TypeError(f"cannot use {describe(spec(array))} as {what}")


def as_array(value):
    return jnp.asarray(value)

