"""Reads of a Python list that a `lax.scan` appends to: seen, so they are refused rather
than traced wrong.

A loop of static trip count traces its body once for every iteration, and a list it
appends to grows by that iteration's items (runtime/operators/staging.py, loops.py's
scan). That is exact only while the body never looks at the list: its length and its
items differ from one iteration to the next, but the one trace sees them as they were
before the loop (`len(ys)` is always the entry length, `ys[-1]` always the entry's last
item). So while a scan traces its iteration,
each list of the state is a `WatchedList`, which notes every use but `append`/`extend`/
`+=` made by the user's code; our own staging reads it freely (`machinery()`, undone
around the user's code by `user_code()`).

Contract:
- `watch(get_state, set_state, symbol_names)` puts a `WatchedList` copy in place of each
  list of the state and returns `check`; `check(entry, end)` raises the documented
  ValueError naming the symbol and the read when a list grew (`end` longer than `entry`)
  and was read in the iteration.
- `machinery()` / `user_code()`: context managers, nestable; `as_machinery(fn)` decorates
  a staging operator; `copy(list)` is a branch's copy, watched as the original;
  `rewatched(before, after)` watches the lists of a state our staging rebuilt (after an
  `if` or a loop inside the iteration) as they were before. A scan inside the iteration
  notes a read in its own log and in the enclosing scan's.
"""

import contextlib
import functools

from autograph_py.runtime.operators import state as state_lib

_silent = 0  # >0 while our staging, not the user's code, handles the state


@contextlib.contextmanager
def machinery():
    global _silent
    _silent += 1
    try:
        yield
    finally:
        _silent -= 1


@contextlib.contextmanager
def user_code():
    global _silent
    saved, _silent = _silent, 0
    try:
        yield
    finally:
        _silent = saved


def as_machinery(fn):
    """`fn` (a staging operator) run under `machinery()`."""
    @functools.wraps(fn)
    def staged(*args, **kwargs):
        with machinery():
            return fn(*args, **kwargs)

    return staged


def copy(value):
    """A copy of a list for one branch of a staged `if`, watched as the list was."""
    if isinstance(value, WatchedList):
        return _watched(value, value.log)
    return list(value)


class _Log:
    __slots__ = ("read", "outer")

    def __init__(self, outer=None):
        self.read = None  # how the user's code first read the list, in words
        self.outer = outer  # the log of an enclosing scan watching the same list

    def note(self, what):
        log = self
        while log is not None and log.read is None:
            log.read = what
            log = log.outer


class WatchedList(list):
    __slots__ = ("log",)

    def __init__(self, items=()):
        super().__init__(items)
        self.log = _Log()  # replaced by _watched; a list our staging rebuilt is rewatched


def _noting(name, what):
    method = getattr(list, name)

    def noted(self, *args, **kwargs):
        if not _silent:
            self.log.note(what)
        return method(self, *args, **kwargs)

    noted.__name__ = name
    return noted


_READS = {
    "__len__": "its length", "__getitem__": "an item", "__iter__": "its items",
    "__reversed__": "its items", "__contains__": "`in`", "index": "index()",
    "count": "count()", "copy": "copy()", "__add__": "+", "__mul__": "*", "__rmul__": "*",
    "__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=", "__gt__": ">",
    "__ge__": ">=", "pop": "pop()", "remove": "remove()", "insert": "insert()",
    "__setitem__": "an item assignment", "__delitem__": "del", "sort": "sort()",
    "reverse": "reverse()", "clear": "clear()", "__imul__": "*=",
}
for _name, _what in _READS.items():
    setattr(WatchedList, _name, _noting(_name, _what))
WatchedList.__hash__ = None  # as list's (defining __eq__ would otherwise keep it)


def _watched(items, log):
    watched = WatchedList(list.copy(items))
    watched.log = log
    return watched


def rewatched(before, after):
    """`after` (a state) with each list watched as the same slot of `before` was: our
    staging rebuilds the lists it carries through an `if` or a loop."""
    state = list(after)
    for i, (old, new) in enumerate(zip(before, after)):
        if isinstance(old, WatchedList) and isinstance(new, list) and not (
                isinstance(new, WatchedList) and new.log is old.log):
            state[i] = _watched(new, old.log)
    return tuple(state)


def watch(get_state, set_state, symbol_names):
    state, logs = list(get_state()), {}
    for i, value in enumerate(state):
        if isinstance(value, list):
            logs[i] = _Log(value.log if isinstance(value, WatchedList) else None)
            state[i] = _watched(value, logs[i])
    set_state(tuple(state))

    def check(entry, end):
        for i, log in logs.items():
            grew = isinstance(end[i], list) and list.__len__(end[i]) > len(entry[i])
            if grew and log.read is not None:
                name = state_lib.describe_symbol(symbol_names[i])
                raise ValueError(
                    f"'{name}' is a Python list that the loop resizes and also reads "
                    f"({log.read}); the loop is one lax.scan whose iteration is traced "
                    f"once, so what it reads of '{name}' would be what it was before the "
                    f"loop in every iteration: read a variable that holds what you need "
                    f"(the last item, the count), or make '{name}' an array of its final "
                    f"size before the loop (jnp.zeros(n)) and set items with "
                    f"{name} = {name}.at[i].set(value)")

    return check
