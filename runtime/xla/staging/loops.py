"""JAX's half of a staged `while` and `for` (the algorithm, rotated loop and all:
runtime/operators/staging.py, through adapter.py): `lax.while_loop` and `lax.scan`.

Contract:
- `while_loop(step, first, start, opts)`: `step(values)` is one iteration, giving the
  next condition and the carried values; `first` the first condition. With
  `maximum_iterations` (static) under autodiff (autodiff.py) it is a `lax.scan` of that
  many steps whose body runs only while the test holds (guards.py), so `jax.grad`
  differentiates through it; otherwise `lax.while_loop` (forward mode only, as JAX's
  own), counting iterations against the bound if there is one (unless
  `opts["test_keeps_bound"]` says the test already stops the loop within it: a `for`
  over an array's rows).
- `scan(iteration, start, length)`: a loop of static trip count and no early stop (a
  `for` over a static length without `break`/`return`) as a `lax.scan` of exactly that
  many steps; the items a step appends to Python lists are its stacked outputs.
- `check_list`, `check_carried`: the errors of a Python list the loop resizes (static
  shapes: build an array with `.at[i].set`) and of a dtype or shape that changes.
- `checked_read(value, ran, message)`: `value`, failing when the program runs and read
  after a loop that ran no iteration, as Python's UnboundLocalError would (a host
  callback on the value, so a symbol never read after the loop never fails).
"""

import jax
import numpy as np
from autograph_py.runtime import nest
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.xla import lax_control
from autograph_py.runtime.xla.staging import autodiff, guards, host_failures, values
from jax import lax


def while_loop(step, first, start, opts):
    def carry_step(carry):
        return step(carry[1])

    limit = opts.get("maximum_iterations")
    if limit is not None and autodiff.active():
        _, results = guards.bounded_scan(lambda carry: carry[0], carry_step, (first, start),
                                         limit)
    elif limit is None or opts.get("test_keeps_bound") or autodiff.active():
        with guards.suspended():
            _, results = lax_control.while_loop(lambda carry: carry[0], carry_step,
                                                (first, start))
    else:  # nothing differentiates it: stop as soon as the test fails
        def counted_step(carry):
            return (*carry_step(carry[1:]), carry[0] + 1)

        with guards.suspended():
            _, _, results = lax_control.while_loop(
                lambda carry: carry[1] & (carry[0] < limit),
                lambda c: _rotate(counted_step(c)), (0, first, start))
    return results


def scan(iteration, start, length):
    def scan_step(carry, _):
        _, carried_values, appended = iteration(carry)
        return carried_values, nest.map_structure(values.as_array, appended)

    with guards.suspended():
        return lax.scan(scan_step, start, None, length=length)


def _rotate(carry):
    """(condition, values, count) as (count, condition, values)."""
    return carry[2], carry[0], carry[1]


def check_list(before, after, name):
    if isinstance(before, list) and isinstance(after, list) and len(before) != len(after):
        raise ValueError(
            f"'{name}' is a Python list that the loop resizes; the loop is staged with "
            "lax (its condition or iterable is a JAX tracer) and JAX arrays have static "
            f"shapes: make '{name}' an array of its final size before the loop "
            f"(jnp.zeros(n)) and set items with {name} = {name}.at[i].set(value)")


def check_carried(previous, value, name):
    if not values.is_carried(value):
        raise TypeError(f"'{name}' is {state_lib.describe(value)} after a loop "
                        "iteration but an array or number before the loop")
    sa, sb = values.spec(previous), values.spec(value)
    if sa != sb:
        raise TypeError(
            f"'{name}' is {values.describe(sa)} before the loop and "
            f"{values.describe(sb)} after an iteration; a loop staged with lax "
            "must keep each variable's dtype and shape (cast it, e.g. write 0.0 "
            "for a float, or give it its final shape before the loop)")


def checked_read(value, ran, message):
    """Only a read fails: the check is a pure callback that JAX drops when the value is
    unused; it passes gradients through unchanged."""
    message = host_failures.located(message, "the loop")

    def check(value, ran):
        if not np.all(ran):
            host_failures.fail(UnboundLocalError(message))
        return value

    @jax.custom_jvp
    def checked(value, ran):
        return jax.pure_callback(check, jax.ShapeDtypeStruct(value.shape, value.dtype),
                                 value, ran, vmap_method="expand_dims")

    @checked.defjvp
    def _tangent_passes_through(primals, tangents):
        return checked(*primals), tangents[0]

    return checked(values.as_array(value), ran)
