"""Staged `while` and `for` loops under a JAX trace: `lax.while_loop` and `lax.scan`.

Contract:
- `loop(test, body, get_state, set_state, symbol_names, opts, condition)`: `while test():
  body()` as one loop carrying the symbols' array and number values, rotated as our graph
  loops are (the test runs exactly as often as in Python, `condition` is its first value).
  With `maximum_iterations` (static) under autodiff (autodiff.py) it is a `lax.scan` of
  that many steps whose body runs only while the test holds (guards.py), so `jax.grad`
  differentiates through it; otherwise `lax.while_loop` (forward mode only, as JAX's own),
  counting iterations against the bound if there is one (unless `opts["test_keeps_bound"]`
  says the test already stops the loop within it: a `for` over an array's rows).
- A `for` over a staged iterable (iterables.py) is runtime/operators/staging.for_stmt
  driving this loop through adapter.py. A static length and no early stop is a
  `lax.scan` of exactly that many steps (a Python list the body appends to then grows by
  the items of every step, stacked as the scan's outputs and unstacked after it: a list
  of static length, as in Python); a static length with a `break`/`return` (an
  `extra_test`) a bounded scan as above; a length known only when the program runs (a
  traced `range` bound) a `lax.while_loop`.
- Symbols the loop assigns before it reads them (temporaries, `retval_`) start as zeros
  of the spec a probe iteration finds (staging.entry_state over adapter.py's
  `jax.eval_shape`: the body's Python side effects run once more while tracing).
  Reading such a symbol after a loop that ran no iteration fails when the program runs,
  as Python's UnboundLocalError would (a host callback on the value, so a symbol never
  read after the loop never fails).
- Errors name the symbol: read by the loop before the loop defines it; a dtype or shape
  that changes across iterations; a Python list the loop resizes (static shapes: build an
  array with `.at[i].set`); a non-array value the loop replaces.
"""

import jax
import numpy as np
from autograph_py.runtime import nest
from autograph_py.runtime.operators import staging
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.undefined import Undefined
from autograph_py.runtime.xla import lax_control
from autograph_py.runtime.xla.staging import autodiff, guards, host_failures, list_reads, values
from jax import lax


@list_reads.as_machinery
def loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition=None,
         exact=None):
    """`exact`: the static trip count of a loop that never stops early (then `test` is
    not called: a `for` without `break` over a static length). `adapter`: adapter.py's,
    for the probe iterations of staging.entry_state."""
    before = get_state()
    _loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition, exact)
    set_state(list_reads.rewatched(before, get_state()))


def _loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition,
          exact):
    if exact == 0 or opts.get("maximum_iterations") == 0:
        return  # the body never runs: every symbol keeps its value, unbound ones too
    if condition is None and exact is None:
        with list_reads.user_code():
            condition = test()
    before = get_state()
    entry = staging.entry_state(adapter, test, body, get_state, set_state, symbol_names)
    flat = nest.flatten(entry)
    names = state_lib.leaf_names(entry, symbol_names)
    carried = [i for i, v in enumerate(flat) if values.is_carried(v)]

    def restore(carried_values):
        leaves = list(flat)
        for i, value in zip(carried, carried_values):
            leaves[i] = value
        set_state(nest.pack_sequence_as(entry, leaves))

    def iteration(carried_values):
        restore(carried_values)
        if exact is not None:  # a list the iteration appends to must not be read (list_reads)
            check_list_reads = list_reads.watch(get_state, set_state, symbol_names)
        with list_reads.user_code():
            body()
            next_condition = None if exact is not None else test()
        if next_condition is not None:
            next_condition = values.truth(next_condition, "a loop's condition")
        end, appended = get_state(), {}
        if exact is not None:
            check_list_reads(entry, end)
            end, appended = _split_appends(entry, end)
        _check_iteration(entry, end, flat, carried, names, symbol_names)
        end_flat = nest.flatten(end)
        return next_condition, [values.as_array(end_flat[i]) for i in carried], appended

    start = [values.as_array(flat[i]) for i in carried]
    if exact is not None:
        def scan_step(carry, _):
            _, carried_values, appended = iteration(carry)
            return carried_values, nest.map_structure(values.as_array, appended)

        with guards.suspended():
            results, appended = lax.scan(scan_step, start, None, length=exact)
        restore(results)
        set_state(_with_appends(get_state(), appended, exact))
        return
    else:
        first = values.truth(condition, "a loop's condition")

        def step(carry):
            next_condition, carried_values, _ = iteration(carry[1])
            return next_condition, carried_values

        limit = opts.get("maximum_iterations")
        if limit is not None and autodiff.active():
            _, results = guards.bounded_scan(lambda carry: carry[0], step, (first, start),
                                             limit)
        elif limit is None or opts.get("test_keeps_bound") or autodiff.active():
            with guards.suspended():
                _, results = lax_control.while_loop(lambda carry: carry[0], step,
                                                    (first, start))
        else:  # nothing differentiates it: stop as soon as the test fails
            def counted_step(carry):
                return (*step(carry[1:]), carry[0] + 1)

            with guards.suspended():
                _, _, results = lax_control.while_loop(
                    lambda carry: carry[1] & (carry[0] < limit),
                    lambda c: _rotate(counted_step(c)), (0, first, start))
    restore(results)
    unbound = [i for i, v in enumerate(before) if type(v) is Undefined
               and not isinstance(entry[i], Undefined)]
    if unbound:
        ran = values.truth(condition)
        state = list(get_state())
        for i in unbound:
            state[i] = nest.map_structure(
                lambda v, name=symbol_names[i]: _checked_read(v, ran, name)
                if values.is_carried(v) else v, state[i])
        set_state(tuple(state))


def _rotate(carry):
    """(condition, values, count) as (count, condition, values)."""
    return carry[2], carry[0], carry[1]


def _split_appends(entry, end):
    """`end` with each list cut back to its length before the loop, and the items an
    iteration appended to it, by symbol index (a loop of static trip count only: tracing
    one iteration fixes how many items every iteration appends)."""
    end, appended = list(end), {}
    for i, (before, after) in enumerate(zip(entry, end)):
        if isinstance(before, list) and isinstance(after, list) and len(after) > len(before):
            end[i], appended[i] = after[:len(before)], after[len(before):]
    return tuple(end), appended


def _with_appends(state, appended, steps):
    """The lists of `state` extended by the items each of the `steps` iterations appended
    (`appended[i][j]` stacks item j of every iteration), in Python's order."""
    state = list(state)
    for i, stacked in appended.items():
        state[i] = state[i] + [item[step] for step in range(steps) for item in stacked]
    return tuple(state)


def _check_iteration(entry, end, flat, carried, names, symbol_names):
    for before, after, name in zip(entry, end, symbol_names):
        shown = state_lib.describe_symbol(name)
        if isinstance(before, list) and isinstance(after, list) and len(before) != len(after):
            raise ValueError(
                f"'{shown}' is a Python list that the loop resizes; the loop is staged with "
                "lax (its condition or iterable is a JAX tracer) and JAX arrays have static "
                f"shapes: make '{shown}' an array of its final size before the loop "
                f"(jnp.zeros(n)) and set items with {shown} = {shown}.at[i].set(value)")
        state_lib.check_same_structure(before, after, name, "after a loop iteration")
    end_flat = nest.flatten(end)
    for i, (before, after) in enumerate(zip(flat, end_flat)):
        if i in carried:
            if not values.is_carried(after):
                raise TypeError(f"'{names[i]}' is {state_lib.describe(after)} after a loop "
                                "iteration but an array or number before the loop")
            sa, sb = values.spec(before), values.spec(after)
            if sa != sb:
                raise TypeError(
                    f"'{names[i]}' is {values.describe(sa)} before the loop and "
                    f"{values.describe(sb)} after an iteration; a loop staged with lax "
                    "must keep each variable's dtype and shape (cast it, e.g. write 0.0 "
                    "for a float, or give it its final shape before the loop)")
        elif after is not before:
            raise TypeError(
                f"'{names[i]}' is {state_lib.describe(before)} before the loop and "
                f"{state_lib.describe(after)} after an iteration; a loop staged with lax can "
                "only change variables that hold an array or a number before it")


def _checked_read(value, ran, name):
    """`value`, made to fail when the program runs and `ran` is false, as Python's
    UnboundLocalError for a variable a loop that ran no iteration never assigned. Only a
    read fails: the check is a pure callback that JAX drops when the value is unused; it
    passes gradients through unchanged."""

    message = host_failures.located(
        f"local variable '{name}' is used after a staged loop that ran no iteration, so it "
        f"was never assigned (define '{name}' before the loop)", "the loop")

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
