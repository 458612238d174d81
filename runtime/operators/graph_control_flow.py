"""Our graphs' staging of `if`, `while` and `for` (the graph backend's control flow).

Contract (the dispatch and the Python-run statements: control_flow.py):
- `if_stmt(cond, body, orelse, get_state, set_state, symbol_names)` traces both bodies into
  one `cond`, each starting from the state before the `if`. Errors name the symbol: a
  symbol defined in only one branch and used after it; a dtype or structure that differs
  between the branches; a non-tensor value (None, an object) that a branch replaces. Where
  one branch leaves `retval_` unassigned (a `return` in the other, lowered with a
  `do_return` flag) it is filled with zeros there: the flag guards that value. A Python
  list that one branch resizes becomes a `TensorList`. Both are found while tracing, and
  the branches are traced again (their Python side effects run again).
- `loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition)` is one
  `while_loop` over the symbols' values (state.py says which values are carried), rotated
  so the test runs exactly as often as in Python. Symbols the loop assigns before reading
  (temporaries, `retval_`) start as zeros of the right spec; a Python list the loop
  resizes becomes a `TensorList`. Both are learnt by staging.entry_state from probe
  iterations (graph_staging.py, `adapter`), made only when such symbols or lists exist
  (the body's Python side effects run once more while tracing). A symbol read before the
  loop defines it, or a dtype or structure that changes across iterations, is an error
  naming it.
- `resized(a, b)` / `element_like(init, *ends)`: whether a list ends two paths with
  different lengths, and an element that gives the dtype and shape of its TensorList.
The `for` over a staged iterable is staging.for_stmt, driving this loop.
"""

from autograph_py.runtime import dtypes, nest
from autograph_py.runtime.control_flow import check_predicate, while_loop
from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.operators import staging
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.truth import as_condition, truth
from autograph_py.runtime.operators.undefined import (
    Undefined,
    UndefinedReturnValue,
)
from autograph_py.runtime.ops.bound_check import require_bound
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import logical_not
from autograph_py.runtime.tensor import Tensor, to_array

# --- if ---------------------------------------------------------------------------------


class _TraceOtherBranchFirst(Exception):
    """The first traced branch left `retval_` unassigned; it must be traced second."""


class _ListResized(Exception):
    """A branch resizes the Python list in state slot `index`: it must be a TensorList."""

    def __init__(self, index, like):
        super().__init__(index)
        self.index, self.like = index, like


def if_stmt(cond, body, orelse, get_state, set_state, symbol_names):
    init = get_state()
    # Each retry fixes one thing the first tracing found (so this ends); it traces the
    # branches again, running their Python side effects again.
    while True:
        try:
            final = _staged_if(cond, body, orelse, init, get_state, set_state, symbol_names)
            break
        except _TraceOtherBranchFirst:
            cond, body, orelse = logical_not(truth(cond)), orelse, body
        except _ListResized as grown:
            i = grown.index
            init = (*init[:i], TensorList.from_items(init[i], grown.like), *init[i + 1:])
    set_state(final)


def _staged_if(cond, body, orelse, init, get_state, set_state, symbol_names):
    ends = []    # each traced branch's final state, in tracing order
    names = []   # filled by the first branch; cond reads it only for its error messages

    def branch(fn):
        def traced():
            # A fresh copy of each list: appends while tracing one branch must not be seen
            # by the other.
            set_state(tuple(list(v) if isinstance(v, list) else v for v in init))
            fn()
            end = get_state()
            if ends:
                end = _reconcile_branches(init, ends[0], end, symbol_names)
            else:
                names[:] = state_lib.leaf_names(end, symbol_names)
            ends.append(end)
            return [state_lib.to_tensor(v) for v in nest.flatten(end)]

        return traced

    results = staged_cond(truth(cond), branch(body), branch(orelse), names=names)
    template = nest.flatten(ends[0])
    return nest.pack_sequence_as(ends[0], [state_lib.from_tensor(t, r)
                                           for t, r in zip(template, results)])


def _reconcile_branches(init, first, second, symbol_names):
    """`second` made stageable against `first`, or an error naming the symbol."""
    second = list(second)
    for i, name in enumerate(symbol_names):
        a, b = first[i], second[i]
        if isinstance(a, UndefinedReturnValue) and isinstance(b, UndefinedReturnValue):
            continue
        if isinstance(a, UndefinedReturnValue):
            raise _TraceOtherBranchFirst()
        if isinstance(b, UndefinedReturnValue):
            second[i] = state_lib.placeholder_like(a)
        elif isinstance(a, Undefined) and isinstance(b, Undefined):
            second[i] = a  # undefined after either branch: stays an Undefined
        elif state_lib.is_probing() and isinstance(b, Undefined):
            second[i] = state_lib.placeholder_like(a)
        elif state_lib.is_probing() and isinstance(a, Undefined):
            raise _TraceOtherBranchFirst()
        elif isinstance(a, Undefined) or isinstance(b, Undefined):
            raise ValueError(
                f"'{name}' is defined in only one branch of the `if` and used after it; the "
                "condition is a tensor, so both branches are built into the graph and both "
                f"must give '{name}' a value (or define it before the `if`)")
        elif isinstance(init[i], list) and resized(a, b):
            raise _ListResized(i, element_like(init[i], a, b))
        else:
            state_lib.check_same_structure(a, b, name, "in the two branches of the `if`")
    return tuple(second)


def resized(a, b):
    """Whether a list ends the two branches with different lengths (a TensorList, made
    by a staged loop in a branch, has a length known only when the graph runs)."""
    return isinstance(a, TensorList) or isinstance(b, TensorList) or (
        isinstance(a, list) and isinstance(b, list) and len(a) != len(b))


def element_like(init, *ends):
    """An element (or a TensorList, standing for its elements) that gives the dtype and
    shape of a list that started as `init` and ended as each of `ends`."""
    for end in ends:
        if isinstance(end, TensorList):
            return end
    longer = max(ends, key=len)
    return longer[len(init)] if len(longer) > len(init) else init[0]



# --- the staged loop --------------------------------------------------------------------


def loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition=None):
    """`while test(): body()` as one while_loop carrying the symbols' values.

    `opts` may hold `maximum_iterations` and `shape_invariants` (pairs of a symbol's
    value before the loop and the shapes it may take, matched by identity as TensorFlow
    does). Tensors of TensorArrays and of lists the loop grows change shape freely.

    The loop is rotated: the condition is itself a loop variable, computed once before
    the loop (`condition`, when the caller already evaluated it) and again after each
    body. So a test with side effects on the state (`while (n := n - 1) > 0`) runs
    exactly as often as in Python, and the state after the loop includes its last run.
    """
    if condition is None:
        condition = test()
    unbound = [i for i, v in enumerate(get_state()) if type(v) is Undefined]
    init = staging.entry_state(adapter, test, body, get_state, set_state, symbol_names)
    flat = nest.flatten(init)
    names = state_lib.leaf_names(init, symbol_names)
    carried = [i for i, v in enumerate(flat) if state_lib.is_carried(v)]
    invariants = state_lib.shape_invariants(init, opts.get("shape_invariants") or ())

    def restore(values):
        leaves = list(flat)
        for i, value in zip(carried, values):
            leaves[i] = state_lib.from_tensor(flat[i], value)
        set_state(nest.pack_sequence_as(init, leaves))

    def loop_test(condition, *values):
        return condition

    def loop_body(condition, *values):
        restore(values)
        body()
        _check_dtypes(get_state(), carried, values, names)  # before the test uses them
        next_condition = test()
        end = get_state()
        for before, after, name in zip(init, end, symbol_names):
            state_lib.check_same_structure(before, after, name, "after a loop iteration")
        end_flat = nest.flatten(end)
        for i, (before, after) in enumerate(zip(flat, end_flat)):
            if i not in carried and after is not before:
                raise TypeError(
                    f"'{names[i]}' is {state_lib.describe(before)} before the loop and "
                    f"{state_lib.describe(after)} after an iteration; a staged loop can only "
                    "change variables that hold a tensor or a number before it")
        return [_condition_tensor(next_condition)] + [
            state_lib.to_tensor(end_flat[i]) for i in carried]

    results = while_loop(
        loop_test, loop_body,
        [_condition_tensor(condition)] + [state_lib.to_tensor(flat[i]) for i in carried],
        shape_invariants=[None] + [invariants[i] for i in carried],
        maximum_iterations=opts.get("maximum_iterations"),
        names=["<loop condition>"] + [names[i] for i in carried])
    restore(results[1:])
    if unbound:
        _require_an_iteration(get_state, set_state, symbol_names, unbound,
                              _condition_tensor(condition))


def _require_an_iteration(get_state, set_state, symbol_names, unbound, first_condition):
    """Symbols first bound inside the staged loop: reading them after it must fail, as in
    Python, when the loop ran no iteration (they would hold the zeros they started as).
    The check runs where a value is read (`require_bound`), so a read that a branch not
    taken holds raises nothing."""
    # The loop is rotated: its first condition alone says whether the body ever ran.
    state = list(get_state())
    for i in unbound:
        name = symbol_names[i]
        message = (f"local variable '{name}' is used after a staged loop that ran no "
                   f"iteration, so it was never assigned (define '{name}' before the loop)")
        state[i] = nest.map_structure(
            lambda v, m=message: _checked(v, first_condition, m), state[i])
    set_state(tuple(state))


def _checked(value, bound, message):
    """`value` (a loop result) checked where it is read, when it is a tensor."""
    if not state_lib.is_carried(value):
        return value
    return state_lib.from_tensor(value, require_bound(state_lib.to_tensor(value), bound,
                                                       message))


def _check_dtypes(state, carried, before, names):
    flat = nest.flatten(state)
    for i, previous in zip(carried, before):
        dtype = _carried_dtype(flat[i], previous.dtype)
        if dtype is not previous.dtype:
            raise TypeError(
                f"'{names[i]}' has dtype {previous.dtype.name} before the loop but "
                f"{dtype.name} after an iteration; a variable of a staged loop must keep "
                "its dtype (cast it with ag.cast)")


def _carried_dtype(value, hint):
    """The dtype `value` has as a loop variable: a Python number takes the variable's
    dtype `hint` when that is lossless (as `while_loop` converts it), else its own."""
    if isinstance(value, (Tensor, TensorList)):
        return value.dtype
    if not state_lib.is_carried(value):
        return hint  # not a number: the structure checks that follow name it
    try:
        return dtypes.as_dtype(to_array(value, hint).dtype)
    except TypeError:
        return dtypes.as_dtype(to_array(value).dtype)


def _condition_tensor(condition):
    tensor = truth(convert_to_tensor(as_condition(condition)))
    check_predicate(tensor, "a staged loop's condition")
    return tensor
