"""The staging algorithm shared by every staging backend, written once over an adapter.

Each backend (graph_staging.py for our graphs, `autograph_py.runtime.xla.staging.adapter`
for JAX tracers) passes an adapter object; this module imports no backend (and never JAX).

Contract:
- `if_stmt(adapter, cond, body, orelse, get_state, set_state, symbol_names, guard)` traces
  both bodies, each from the state before the `if` (a Python list copied for each), into
  one `adapter.cond`. Errors name the symbol: defined in only one branch and used after
  it; a structure that differs between the branches (then `adapter.check_leaves`). A
  symbol one branch leaves unset (a `retval_` before a `return` in the other; in a probe
  iteration, any symbol) is `adapter.zeros` of the other branch's value there; when the
  branch traced first left it unset, both are traced again, the branches swapped
  (`adapter.swaps_branches`, the condition `adapter.negate`d) or that symbol filled in
  the first. A Python list one branch resizes is `adapter.branch_list`'s error, or a
  function making the staged list that both are traced again from. Each retry fixes one
  symbol for good (so this ends) and runs the branches' Python side effects again.
- `loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition, exact)`:
  `while test(): body()` as one loop carrying the symbols' `adapter.is_carried` leaves,
  rotated: the condition is itself carried, computed before the loop (`condition`, when
  the caller already evaluated it) and after each body, so a test with side effects on
  the state runs exactly as often as in Python. With `exact` (a static trip count, no
  early stop: then `test` is never called) the loop is `adapter.scan`, and a Python list
  the body appends to grows by every step's items (`adapter.watch_lists` refuses reads
  of it); otherwise `adapter.while_loop`. Each iteration checks, naming the symbol, that
  every carried leaf keeps its kind (`adapter.check_carried`, right after the body when
  `adapter.checks_carried_first`, else after the structure), that each symbol keeps its
  structure (`adapter.check_list` first), and that no other leaf changes. A symbol first
  bound inside the loop is `adapter.checked_read` after it: reading it fails when the
  program runs if the loop ran no iteration, as Python's UnboundLocalError would.
  `adapter.skips_empty`: a loop known to run no iteration builds nothing.
- `for_stmt(adapter, staged, extra_test, body, get_state, set_state, symbol_names, opts)`
  walks a staged iterable (staging_iterables.py: `has_item`, `item`, `length`, `finished`) by an
  index counting iterations from 0, carried as the symbol `"<for loop index>"` in one
  `adapter.loop`. With no `extra_test` (no `break`/`return`) and a static bound (the
  iterable's `length`, `maximum_iterations`), a backend that `scans` runs exactly that
  many iterations (`exact`); otherwise the loop stops on `has_item(index)` combined with
  `extra_test()` by `adapter.both`, within the bound.
- `entry_state(adapter, test, body, get_state, set_state, symbol_names)`: the loop
  variables' initial values. Symbols the loop assigns before reading them (temporaries,
  `retval_`) start as `adapter.zeros` of what one probe iteration (`adapter.probe`: body
  then test, as the rotated loop runs them) gives them; with `adapter.probes_lists`, a
  Python list the probe resizes becomes `adapter.stage_list(before, after)`. What one
  probe learns can change what the next one sees, so probes repeat until nothing more is
  learnt (each one that learns something settles a symbol for good, so this ends). A
  probe that reads a symbol the loop has not yet defined is a ValueError naming it.
`Statements` gives a backend these as its methods (each adapter's `if_stmt` and `loop`
call `if_stmt` and `loop` here, wrapped as the backend needs). The messages both
backends give are here, with the fragments that name the backend's staging from the
adapter (`staged_if`, `staged_loop`, `loop_changes`); one only a backend gives is its
adapter's (a dtype that changes, a list that one backend cannot stage).
"""

from autograph_py.runtime import nest
from autograph_py.runtime.operators import state as state_lib
from autograph_py.runtime.operators.undefined import (
    Undefined,
    UndefinedReturnValue,
    UndefinedSymbolError,
)

UNASSIGNED = (Undefined, UndefinedReturnValue)


class Statements:
    """A staging backend's `if_stmt`, `loop` and `for_stmt` (backends.StagingBackend):
    this algorithm over the backend's class attribute `adapter`."""

    def if_stmt(self, cond, body, orelse, get_state, set_state, symbol_names):
        self.adapter.if_stmt(cond, body, orelse, get_state, set_state, symbol_names)

    def loop(self, test, body, get_state, set_state, symbol_names, opts, condition=None):
        self.adapter.loop(test, body, get_state, set_state, symbol_names, opts, condition)

    def for_stmt(self, staged, extra_test, body, get_state, set_state, symbol_names, opts):
        for_stmt(self.adapter, staged, extra_test, body, get_state, set_state, symbol_names,
                 opts)


# --- if ---------------------------------------------------------------------------------


class _UnsetInFirst(Exception):
    """The branch traced first left symbol `index` unset; the second gave it `like`."""

    def __init__(self, index, like):
        super().__init__(index)
        self.index, self.like = index, like


class _ListStaged(Exception):
    """A branch resizes the Python list in slot `index`: it is `stage()` from now on
    (called once out of the traced branches, so it is made before the `if`)."""

    def __init__(self, index, stage):
        super().__init__(index)
        self.index, self.stage = index, stage


def if_stmt(adapter, cond, body, orelse, get_state, set_state, symbol_names, guard=None):
    init = get_state()
    fns, fills = (body, orelse), {}
    while True:
        branches = Branches(adapter, fns, init, fills, get_state, set_state, symbol_names)
        try:
            outputs = adapter.cond(cond, branches, guard)
            break
        except _UnsetInFirst as unset:
            if adapter.swaps_branches:
                cond, fns = adapter.negate(cond), fns[::-1]
            else:
                fills[unset.index] = unset.like
        except _ListStaged as grown:
            i = grown.index
            init = (*init[:i], grown.stage(), *init[i + 1:])
    set_state(adapter.merge(init, branches.ends, outputs))


class Branches:
    """The two bodies of one staged `if`, as functions a backend's `cond` traces.

    `traced(k)` is body k (0: the `if` body, 1: the `else`, unless swapped) returning
    `adapter.branch_outputs` of its end state, which it appends to `ends` (each traced
    branch's end state, in tracing order; `traced(k, [])` keeps it apart, for a backend
    that traces a branch once more to look at it). `names` names the leaves of the first
    end state, for the backend's own messages; `init` is the state before the `if`.
    """

    def __init__(self, adapter, fns, init, fills, get_state, set_state, symbol_names):
        self.adapter, self.fns, self.init, self.fills = adapter, fns, init, fills
        self.get_state, self.set_state, self.symbol_names = get_state, set_state, symbol_names
        self.ends, self.names = [], []

    def traced(self, k, ends=None):
        adapter, init = self.adapter, self.init
        ends = self.ends if ends is None else ends

        def traced():
            # A fresh copy of each list: appends while tracing one branch must not be seen
            # by the other.
            self.set_state(tuple(adapter.copy_list(v) if isinstance(v, list) else v
                                 for v in init))
            with adapter.user_code():
                self.fns[k]()
            end = list(self.get_state())
            for i, like in self.fills.items():
                if isinstance(end[i], UNASSIGNED):
                    end[i] = adapter.zeros(like)
            if ends:
                end = _reconcile(adapter, init, ends[0], end, self.symbol_names)
            elif ends is self.ends:
                self.names[:] = state_lib.leaf_names(end, self.symbol_names)
            ends.append(tuple(end))
            return adapter.branch_outputs(end)

        traced.ends = ends
        return traced


def _reconcile(adapter, init, first, second, symbol_names):
    """`second` (a list) made to match `first`, or an error naming the symbol."""
    probing = state_lib.is_probing()
    for i, name in enumerate(symbol_names):
        a, b = first[i], second[i]
        shown = state_lib.describe_symbol(name)
        if isinstance(a, UndefinedReturnValue) and isinstance(b, UndefinedReturnValue):
            continue
        # In a loop's probe iteration, an unset symbol only needs a spec (state.py).
        unset_a = isinstance(a, UndefinedReturnValue) or (probing and isinstance(a, Undefined))
        unset_b = isinstance(b, UndefinedReturnValue) or (probing and isinstance(b, Undefined))
        if unset_a and not unset_b:
            raise _UnsetInFirst(i, b)
        if unset_b and not unset_a:
            second[i] = adapter.zeros(a)
            continue
        if isinstance(a, Undefined) and isinstance(b, Undefined):
            second[i] = a  # undefined after either branch: stays an Undefined
            continue
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            raise ValueError(
                f"'{shown}' is defined in only one branch of the `if` and used after it; "
                f"{adapter.staged_if} and both must give '{shown}' a value (or define it "
                "before the `if`)")
        stage = adapter.branch_list(init[i], a, b, shown)
        if stage is not None:
            raise _ListStaged(i, stage)
        state_lib.check_same_structure(a, b, name, "in the two branches of the `if`")
        adapter.check_leaves(a, b, shown)
    return second


# --- the rotated loop -------------------------------------------------------------------


def loop(adapter, test, body, get_state, set_state, symbol_names, opts, condition=None,
         exact=None):
    if adapter.skips_empty and (exact == 0 or opts.get("maximum_iterations") == 0):
        return  # the body never runs: every symbol keeps its value, unbound ones too
    if condition is None and exact is None:
        with adapter.user_code():
            condition = test()
    before = get_state()
    entry = entry_state(adapter, test, body, get_state, set_state, symbol_names)
    flat = nest.flatten(entry)
    names = state_lib.leaf_names(entry, symbol_names)
    carried = [i for i, v in enumerate(flat) if adapter.is_carried(v)]

    def restore(values):
        leaves = list(flat)
        for i, value in zip(carried, values):
            leaves[i] = adapter.from_carried(flat[i], value)
        set_state(nest.pack_sequence_as(entry, leaves))

    def iteration(values):
        """One iteration from the carried `values`: (the next condition or None, the
        carried values after it, the items it appended to lists by symbol index)."""
        restore(values)
        if exact is not None:
            check_list_reads = adapter.watch_lists(get_state, set_state, symbol_names)
        with adapter.user_code():
            body()
            if adapter.checks_carried_first:  # before the test uses them
                after = nest.flatten(get_state())
                for i, previous in zip(carried, values):
                    adapter.check_carried(previous, after[i], names[i])
            next_condition = None if exact is not None else test()
        if next_condition is not None:
            next_condition = adapter.condition(next_condition)
        end, appended = get_state(), {}
        if exact is not None:
            check_list_reads(entry, end)
            end, appended = _split_appends(entry, end)
        _check_iteration(adapter, entry, end, flat, dict(zip(carried, values)), names,
                         symbol_names)
        end_flat = nest.flatten(end)
        return next_condition, [adapter.to_carried(end_flat[i]) for i in carried], appended

    start = [adapter.to_carried(flat[i]) for i in carried]
    if exact is not None:
        results, appended = adapter.scan(iteration, start, exact)
        restore(results)
        set_state(_with_appends(get_state(), appended, exact))
        return
    results = adapter.while_loop(lambda values: iteration(values)[:2], condition, start,
                                 opts, entry=entry, carried=carried, names=names)
    restore(results)
    unbound = [i for i, v in enumerate(before) if type(v) is Undefined
               and not isinstance(entry[i], Undefined)]
    if unbound:
        _require_an_iteration(adapter, get_state, set_state, symbol_names, unbound,
                              adapter.condition(condition))


def _check_iteration(adapter, entry, end, flat, previous, names, symbol_names):
    for before, after, name in zip(entry, end, symbol_names):
        adapter.check_list(before, after, state_lib.describe_symbol(name))
        state_lib.check_same_structure(before, after, name, "after a loop iteration")
    for i, (before, after) in enumerate(zip(flat, nest.flatten(end))):
        if i in previous:
            if not adapter.checks_carried_first:
                adapter.check_carried(previous[i], after, names[i])
        elif after is not before:
            raise TypeError(
                f"'{names[i]}' is {state_lib.describe(before)} before the loop and "
                f"{state_lib.describe(after)} after an iteration; {adapter.loop_changes}")


def _require_an_iteration(adapter, get_state, set_state, symbol_names, unbound, ran):
    """Symbols first bound inside the loop: reading them after it must fail, as in Python,
    when the loop ran no iteration (they would hold the zeros they started as). The check
    runs where a value is read, so a read that a branch not taken holds raises nothing.
    The loop is rotated: its first condition (`ran`) alone says whether the body ran."""
    state = list(get_state())
    for i in unbound:
        name = symbol_names[i]
        message = (f"local variable '{name}' is used after a staged loop that ran no "
                   f"iteration, so it was never assigned (define '{name}' before the loop)")
        state[i] = nest.map_structure(
            lambda v, m=message: adapter.checked_read(v, ran, m)
            if adapter.is_carried(v) else v, state[i])
    set_state(tuple(state))


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


# --- for over a staged iterable ---------------------------------------------------------


def for_stmt(adapter, staged, extra_test, body, get_state, set_state, symbol_names, opts):
    index = 0

    def get_loop_state():
        return (index, *get_state())

    def set_loop_state(values):
        nonlocal index
        index = values[0]
        set_state(tuple(values[1:]))

    def test():
        has_item = staged.has_item(index)
        return has_item if extra_test is None else adapter.both(has_item, extra_test())

    def loop_body():
        nonlocal index
        item = staged.item(index)
        index = adapter.next_index(index)
        body(item)

    bounds = [n for n in (staged.length, opts.get("maximum_iterations")) if n is not None]
    bound = min(bounds) if bounds else None
    exact = bound if adapter.scans and extra_test is None else None
    adapter.loop(test, loop_body, get_loop_state, set_loop_state,
                 ("<for loop index>", *symbol_names),
                 {**opts, "maximum_iterations": bound if exact is None else None,
                  "test_keeps_bound": bound == staged.length},
                 exact=exact)
    staged.finished(index)


# --- the probe iterations ---------------------------------------------------------------


def entry_state(adapter, test, body, get_state, set_state, symbol_names):
    entry = get_state()
    while True:
        unknown = [i for i, v in enumerate(entry) if isinstance(v, UNASSIGNED)
                   or (adapter.probes_lists and isinstance(v, list))]
        if not unknown:
            return entry
        with state_lib.probing():
            after = adapter.probe(_one_iteration(adapter, test, body, entry), entry, unknown,
                                  set_state, get_state)
        learnt = list(entry)
        for i in unknown:
            if isinstance(entry[i], list):
                staged = adapter.stage_list(entry[i], after[i])
                if staged is not None:
                    learnt[i] = staged
            elif not isinstance(after[i], UNASSIGNED):
                learnt[i] = adapter.zeros(after[i])
        if all(a is b for a, b in zip(learnt, entry)):
            return entry
        entry = tuple(learnt)


def _one_iteration(adapter, test, body, entry):
    """One iteration of the loop from `entry`: the body, then the test (the loop is
    rotated), a symbol read before the loop defines it named in a ValueError."""
    undefined = {v.symbol_name for v in entry if isinstance(v, Undefined)}

    def run():
        try:
            body()
            test()
        except UndefinedSymbolError as e:
            if e.symbol_name in undefined:
                raise ValueError(f"'{e.symbol_name}' must be defined before the loop: "
                                 f"{adapter.staged_loop} and reads '{e.symbol_name}' "
                                 "before assigning it") from e
            raise

    return run
