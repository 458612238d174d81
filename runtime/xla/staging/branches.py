"""JAX's half of a staged `if` (the algorithm: runtime/operators/staging.py, through
adapter.py) and a staged conditional value: `lax.cond`.

Contract:
- `cond(pred, branches, guard)`: the two branches of a `staging.Branches` in one
  `lax.cond`, or, when the `if` starts a guarded loop step (`guard`, guards.py), one that a
  stopped loop sends to a branch doing no float work, else a `lax.switch`.
- `assemble(init, ends, outputs)`: the state after the `if`: every symbol holds the
  taken branch's value; a symbol neither branch changed keeps its Python value.
- `check_resized(before, a, b, name)` / `check_same_leaf(a, b, name)`: the errors of a
  Python list one branch resizes (JAX arrays have static shapes), of a dtype or shape
  that differs between the branches, of a non-array value (None, an object) that differs.
- `cond_value(pred, true_fn, false_fn, names)`: the value of a ternary, `and` or `or`
  (`names[0]` is its source text, for errors); both values must be arrays or numbers of
  one dtype and shape.
"""

import jax
import jax.numpy as jnp
from autograph_py.runtime import nest
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.xla.staging import guards, list_reads, values
from jax import lax


def cond(pred, branches, guard):
    if guard is None:
        with guards.suspended():
            return lax.cond(pred, branches.traced(0), branches.traced(1))
    return _guarded_cond(guard, pred, branches)


def _guarded_cond(guard, pred, branches):
    """The `if` at the top of a guarded loop step (guards.py): a `lax.cond` that a stopped
    loop sends to a branch doing no float work (a `break`, a `return` of a value already
    computed), else a `lax.switch` whose third branch gives zeros."""
    passive = [_leaves_floats_alone(branches.traced(k, []), branches.init) for k in (0, 1)]
    traced = [branches.traced(k) for k in (0, 1)]
    if passive[0]:
        return guards.guarded(lax.cond, pred | ~guard, *traced)
    if passive[1]:
        return guards.guarded(lax.cond, pred & guard, *traced)
    return guards.guarded(lax.switch, guards.switch_index(guard, pred),
                          [*traced, _zeros_like_first(branches.ends)])


def _leaves_floats_alone(traced, init):
    """Whether a branch leaves every float as it was before the `if` or sets it to a
    constant, and runs no loop or host call (traced once more, apart, to see)."""
    with guards.suspended():
        jaxpr = jax.make_jaxpr(traced)().jaxpr
    if not guards.may_run_when_stopped(jaxpr):
        return False
    before = {id(leaf) for leaf in nest.flatten(init)}
    end = traced.ends[0]
    return not any(isinstance(leaf, jax.core.Tracer) and id(leaf) not in before and
                   jnp.issubdtype(leaf.dtype, jnp.inexact) for leaf in nest.flatten(end))


def _zeros_like_first(ends):
    """The third branch of a guarded `if`: zeros like the carried leaves the first traced
    branch gives (the loop step that takes it discards its results)."""
    def zeros():
        return [jnp.zeros(*values.spec(v)) for v in nest.flatten(ends[0])
                if values.is_carried(v)]

    return zeros


def check_resized(before, a, b, name):
    if isinstance(before, list) and isinstance(a, list) and isinstance(b, list) and (
            len(a) != len(b)):
        raise ValueError(
            f"'{name}' is a Python list that one branch of the `if` resizes; under a JAX "
            "trace both branches are traced into one lax.cond, whose results have static "
            f"shapes, so '{name}' must have the same length after both (append in both "
            "branches, or build an array with jnp.where)")


def check_same_leaf(a, b, name):
    if values.is_carried(a) and values.is_carried(b):
        sa, sb = values.spec(a), values.spec(b)
        if sa != sb:
            raise TypeError(
                f"'{name}' is {values.describe(sa)} after one branch of the `if` and "
                f"{values.describe(sb)} after the other; under a JAX trace both branches "
                "of a lax.cond must give it the same dtype and shape (cast it, e.g. "
                "jnp.float32(...), or write 0.0 for a float)")
    elif a is not b:
        raise TypeError(
            f"'{name}' is {state_lib.describe(a)} after one branch of the `if` and "
            f"{state_lib.describe(b)} after the other; a JAX-staged `if` can only give "
            "different values to variables that hold arrays or numbers")


def assemble(init, ends, outputs):
    """The state after the `if`: the first traced branch's structure, its carried leaves
    the lax.cond results; a symbol no branch changed keeps its value from before."""
    first, second = ends
    outputs = iter(outputs)
    state = []
    for i, value in enumerate(first):
        leaves = [next(outputs) if values.is_carried(v) else v for v in nest.flatten(value)]
        unchanged = value is init[i] and second[i] is init[i]
        state.append(init[i] if unchanged else nest.pack_sequence_as(value, leaves))
    return tuple(state)


def cond_value(pred, true_fn, false_fn, names):
    pred = values.truth(pred, f"the condition of `{names[0]}`")
    results = []

    def branch(fn):
        def traced():
            with list_reads.user_code():
                value = fn()
            for leaf in nest.flatten(value):
                if not values.is_carried(leaf):
                    raise TypeError(
                        f"`{names[0]}` is staged with lax.cond (its condition is a JAX "
                        f"tracer), so its value must be arrays or numbers, got "
                        f"{state_lib.describe(leaf)}")
            if results:
                state_lib.check_same_structure(results[0], value, names[0],
                                               "in its two branches")
                for a, b in zip(nest.flatten(results[0]), nest.flatten(value)):
                    if values.spec(a) != values.spec(b):
                        raise TypeError(
                            f"`{names[0]}` is {values.describe(values.spec(a))} in one branch "
                            f"and {values.describe(values.spec(b))} in the other; lax.cond "
                            "needs one dtype and shape (cast one side)")
            results.append(value)
            return nest.map_structure(values.as_array, value)

        return traced

    with guards.suspended():
        return lax.cond(pred, branch(true_fn), branch(false_fn))
