"""A staged `if` and a staged conditional value under a JAX trace: `lax.cond`.

Contract:
- `if_stmt(pred, body, orelse, get_state, set_state, symbol_names)`: both bodies traced
  into one `lax.cond`, each from the state before the `if` (a Python list is copied for
  each, so an append in one is not seen by the other). After it, every symbol holds the
  taken branch's value; a symbol neither branch changed keeps its Python value.
  Errors name the symbol: defined in only one branch and used after it; a dtype or shape
  that differs between the branches; a Python list one branch resizes (JAX arrays have
  static shapes); a non-array value (None, an object) that differs between the branches.
  A `retval_` one branch leaves unassigned (a `return` in the other, guarded by the
  `do_return` flag) is zeros there; when that branch was traced first, both are traced
  again (their Python side effects run again).
- `cond_value(pred, true_fn, false_fn, names)`: the value of a ternary, `and` or `or`
  (`names[0]` is its source text, for errors); both values must be arrays or numbers of
  one dtype and shape.
"""

import jax
import jax.numpy as jnp
from autograph_py.runtime import nest
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.undefined import Undefined, UndefinedReturnValue
from autograph_py.runtime.xla.staging import guards, list_reads, values
from jax import lax


class _FillInFirst(Exception):
    """The branch traced first left `retval_` (slot `index`) unassigned, the second did
    not: trace again, filling it with zeros like `like`."""

    def __init__(self, index, like):
        super().__init__(index)
        self.index, self.like = index, like


@list_reads.as_machinery
def if_stmt(pred, body, orelse, get_state, set_state, symbol_names):
    pred = values.truth(pred, "the condition of an `if` statement")
    init = get_state()
    fills = {}
    guard = guards.take()  # set when this `if` starts a bounded loop's step (guards.py)
    while True:
        ends = []

        def make(fn, ends):
            return _branch(fn, init, fills, ends, get_state, set_state, symbol_names)

        try:
            if guard is None:
                with guards.suspended():
                    outputs = lax.cond(pred, make(body, ends), make(orelse, ends))
            else:
                outputs = _guarded_cond(guard, pred, init, (body, orelse), make, ends)
            break
        except _FillInFirst as missing:
            fills[missing.index] = missing.like
    set_state(list_reads.rewatched(init, _assemble(init, ends, outputs)))


def _guarded_cond(guard, pred, init, fns, make, ends):
    """The `if` at the top of a guarded loop step (guards.py): a `lax.cond` that a stopped
    loop sends to a branch doing no float work (a `break`, a `return` of a value already
    computed), else a `lax.switch` whose third branch gives zeros."""
    passive = [_leaves_floats_alone(make(fn, []), init) for fn in fns]
    branches = [make(fn, ends) for fn in fns]
    if passive[0]:
        return guards.guarded(lax.cond, pred | ~guard, *branches)
    if passive[1]:
        return guards.guarded(lax.cond, pred & guard, *branches)
    return guards.guarded(lax.switch, guards.switch_index(guard, pred),
                          [*branches, _zeros_like_first(ends)])


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


def _branch(fn, init, fills, ends, get_state, set_state, symbol_names):
    """The branch `fn` as a function for lax: its end states are appended to `ends`
    (also its attribute `ends`)."""
    def traced():
        set_state(tuple(list_reads.copy(v) if isinstance(v, list) else v for v in init))
        with list_reads.user_code():
            fn()
        end = list(get_state())
        for i, like in fills.items():
            if isinstance(end[i], (Undefined, UndefinedReturnValue)):
                end[i] = values.zeros_like_tree(like)
        if ends:
            end = _reconcile(init, ends[0], end, symbol_names)
        ends.append(tuple(end))
        return [values.as_array(v) for v in nest.flatten(end) if values.is_carried(v)]

    traced.ends = ends
    return traced


def _reconcile(init, first, second, symbol_names):
    """`second` (a list) made to match `first`, or an error naming the symbol."""
    for i, name in enumerate(symbol_names):
        a, b = first[i], second[i]
        shown = state_lib.describe_symbol(name)
        if isinstance(a, UndefinedReturnValue) and isinstance(b, UndefinedReturnValue):
            continue
        # In a loop's probe iteration, an unset symbol only needs a spec (state.py).
        unset_a = isinstance(a, UndefinedReturnValue) or (
            state_lib.is_probing() and isinstance(a, Undefined))
        unset_b = isinstance(b, UndefinedReturnValue) or (
            state_lib.is_probing() and isinstance(b, Undefined))
        if unset_a and not unset_b:
            raise _FillInFirst(i, b)
        if unset_b and not unset_a:
            second[i] = values.zeros_like_tree(a)
            continue
        if isinstance(a, Undefined) and isinstance(b, Undefined):
            continue
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            raise ValueError(
                f"'{shown}' is defined in only one branch of the `if` and used after it; the "
                "condition is a JAX tracer, so both branches are traced into one lax.cond and "
                f"both must give '{shown}' a value (or define it before the `if`)")
        _check_resized(init[i], a, b, shown)
        state_lib.check_same_structure(a, b, name, "in the two branches of the `if`")
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            _check_same_leaf(x, y, shown)
    return second


def _check_resized(before, a, b, name):
    if isinstance(before, list) and isinstance(a, list) and isinstance(b, list) and (
            len(a) != len(b)):
        raise ValueError(
            f"'{name}' is a Python list that one branch of the `if` resizes; under a JAX "
            "trace both branches are traced into one lax.cond, whose results have static "
            f"shapes, so '{name}' must have the same length after both (append in both "
            "branches, or build an array with jnp.where)")


def _check_same_leaf(a, b, name):
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


def _assemble(init, ends, outputs):
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
