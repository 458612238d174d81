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
- `loop(test, body, get_state, set_state, symbol_names, opts, condition)` is one
  `while_loop` over the symbols' values (state.py says which values are carried), rotated
  so the test runs exactly as often as in Python. Symbols the loop assigns before reading
  (temporaries, `retval_`) start as zeros of the right spec; a Python list the loop
  resizes becomes a `TensorList`. Both are learnt from one probe iteration traced into a
  throwaway graph, made only when such symbols exist (the body's Python side effects run
  once more while tracing). A symbol read before the loop defines it, or a dtype or
  structure that changes across iterations, is an error naming it.
- `for_stmt(staged, extra_test, body, ...)` walks a staged iterable (iterables.py) by index
  in one such loop.
"""

from autograph_py.runtime import context, dtypes, nest
from autograph_py.runtime.control_flow import check_predicate, while_loop
from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.truth import as_condition, truth
from autograph_py.runtime.operators.undefined import (
    Undefined,
    UndefinedReturnValue,
    UndefinedSymbolError,
)
from autograph_py.runtime.ops.bound_check import require_bound
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import add, logical_and, logical_not
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor, to_array

_UNASSIGNED = (Undefined, UndefinedReturnValue)


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
        except _ListResized as resized:
            i = resized.index
            init = (*init[:i], TensorList.from_items(init[i], resized.like), *init[i + 1:])
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
        elif isinstance(init[i], list) and _resized(a, b):
            raise _ListResized(i, _element_like(init[i], a, b))
        else:
            state_lib.check_same_structure(a, b, name, "in the two branches of the `if`")
    return tuple(second)


def _resized(a, b):
    """Whether a list ends the two branches with different lengths (a TensorList, made
    by a staged loop in a branch, has a length known only when the graph runs)."""
    return isinstance(a, TensorList) or isinstance(b, TensorList) or (
        isinstance(a, list) and isinstance(b, list) and len(a) != len(b))


def _element_like(init, *ends):
    """An element (or a TensorList, standing for its elements) that gives the dtype and
    shape of a list that started as `init` and ended as each of `ends`."""
    for end in ends:
        if isinstance(end, TensorList):
            return end
    longer = max(ends, key=len)
    return longer[len(init)] if len(longer) > len(init) else init[0]



# --- for --------------------------------------------------------------------------------


def for_stmt(staged, extra_test, body, get_state, set_state, symbol_names, opts):
    index = 0

    def get_loop_state():
        return (index, *get_state())

    def set_loop_state(values):
        nonlocal index
        index = values[0]
        set_state(tuple(values[1:]))

    def test():
        has_item = staged.has_item(index)
        return has_item if extra_test is None else logical_and(has_item, extra_test())

    def loop_body():
        nonlocal index
        item = staged.item(index)
        index = add(index, 1)
        body(item)

    loop(test, loop_body, get_loop_state, set_loop_state,
                ("<for loop index>", *symbol_names), opts)
    staged.finished(index)


# --- the staged loop --------------------------------------------------------------------


def loop(test, body, get_state, set_state, symbol_names, opts, condition=None):
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
    init = _loop_entry_state(test, body, get_state, set_state, symbol_names)
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


def _loop_entry_state(test, body, get_state, set_state, symbol_names):
    """The loop variables' initial values: the state now, except that unassigned symbols
    the loop defines start as placeholders and lists the loop resizes as TensorLists.

    What one probe learns can change what the next one sees (a list that became a
    TensorList makes `sum(acc) > 100` symbolic, so a `return` under it now assigns
    `retval_`), so probes repeat until nothing more is learnt; each one that learns
    something settles a symbol for good, so this ends."""
    entry = get_state()
    while True:
        unknown = [i for i, v in enumerate(entry) if isinstance(v, (*_UNASSIGNED, list))]
        if not unknown:
            return entry
        after = _probe_iteration(test, body, get_state, set_state, entry)
        learnt = _learn_from_probe(entry, after, unknown)
        if all(a is b for a, b in zip(learnt, entry)):
            return entry
        entry = learnt


def _learn_from_probe(entry, after, unknown):
    entry = list(entry)
    for i in unknown:
        before, now = entry[i], after[i]
        if isinstance(before, list):
            if _resized(before, now):
                entry[i] = TensorList.from_items(before, _element_like(before, now))
        elif not isinstance(now, _UNASSIGNED):
            entry[i] = state_lib.placeholder_like(now)
    return tuple(entry)


def _probe_iteration(test, body, get_state, set_state, init):
    """The state after one iteration traced into a throwaway graph, from `init` with the
    carried values replaced by placeholders (as the staged loop will see them)."""
    probe = FuncGraph("loop_probe", context.current_graph())

    def as_input(value, grows=False):
        if isinstance(value, TensorList):
            # Its length is unknown in the loop (the stacked tensor's shape is relaxed), so
            # it must be in the probe too: `len(ys)` is then symbolic, as it will be.
            return TensorList(as_input(value.stacked, grows=True))
        if not state_lib.is_carried(value):
            return value
        with probe.as_default():
            spec = convert_to_tensor(value)
        shape = spec.shape
        if grows and shape.dims:
            shape = TensorShape([None, *shape.dims[1:]])
        return probe.add_input("probe", shape, spec.dtype)

    undefined = {v.symbol_name for v in init if isinstance(v, Undefined)}
    with probe.as_default(), state_lib.probing():
        set_state(tuple(nest.map_structure(as_input, v) for v in init))
        try:  # the staged loop is rotated: its iterations run the body, then the test
            body()
            test()
        except UndefinedSymbolError as e:
            if e.symbol_name in undefined:
                raise ValueError(f"'{e.symbol_name}' must be defined before the loop: the "
                                 "loop is staged (its condition is a tensor) and reads "
                                 f"'{e.symbol_name}' before assigning it") from e
            raise
        return get_state()
