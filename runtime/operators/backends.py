"""The table of staging backends: who runs a statement whose condition, iterable or operand
is not a plain Python value.

Contract:
- `backend_for(value)` returns the backend that stages `value`, or None when `value` is
  run as Python (Python and numpy values, eager tensors, concrete JAX arrays): then the
  operator does exactly what the Python construct does.
- `backend_for_any(values)`: the backend of the first value some backend claims, else None.
- `loaded()`: the backends that have claimed a value so far.
- `never_claims(cls)`: no backend can claim a value of type `cls`. `PLAIN` is a set that
  the fast path (autograph_py/fast_path.py) fills with such types (registering a backend
  empties it, and `context.idle_plain`, the fast path's copy for C-only tests).
- A backend is a row: `register(name, may_claim, claims, load)`. `may_claim(cls)` says,
  once per type (the answer is cached), whether values of `cls` can ever be claimed;
  `claims(value)` decides for one value (a dataset is staged only while a graph is
  built); `load()` returns the backend object, called the first time a value is claimed,
  so a backend's own dependencies (JAX) are imported only when one of its values is seen.
  Rows are asked in registration order.
- Staged stand-ins (a staged `range`, a `TensorList`) name their backend with a class
  attribute `staging_backend = "<name>"`; `has_marker(cls, name)` tests it.

Every backend implements `StagingBackend`: the operators call only these methods, so a new
backend is one new row, not new `isinstance` chains through the operators. The rows
today: our graphs (`graph_backend.py`, registered by `runtime.operators`) and JAX tracers
(`autograph_py.runtime.xla.staging`, registered by `autograph_py`).
"""

from typing import Protocol

from autograph_py.runtime.context import forget_idle_plain


class StagingBackend(Protocol):
    """What a backend does for each staging operator (state arguments: control_flow.py)."""

    name: str

    def truth(self, value):
        """Python's truth of `value` as a staged bool scalar; a non-scalar is an error."""

    def not_(self, value):
        """`not value`, staged."""

    def if_stmt(self, cond, body, orelse, get_state, set_state, symbol_names):
        """A staged `if` over the symbols' state; returns nothing (sets the state)."""

    def loop(self, test, body, get_state, set_state, symbol_names, opts, condition):
        """A staged `while test(): body()`, whose first test already gave `condition`."""

    def iterable(self, value):
        """A staged iterable (has_item/item/finished) for `for x in value`."""

    def for_stmt(self, staged, extra_test, body, get_state, set_state, symbol_names, opts):
        """A staged `for` over the staged iterable `staged`."""

    def stack(self, items):
        """Python items (each a value of this backend or a number) stacked on a new axis."""

    def cond(self, pred, true_fn, false_fn, names):
        """The value of `true_fn()` or `false_fn()`, staged (a ternary, `and`, `or`)."""

    def contains(self, container, item):
        """`item in container`, staged."""

    def assert_(self, test, message):
        """`assert test, message`, checked when the staged computation runs."""

    def builtin(self, name):
        """The staged overload of the builtin `name` (`len`, `range`, ...), or None."""


class _Row:
    __slots__ = ("name", "may_claim", "claims", "load", "backend")

    def __init__(self, name, may_claim, claims, load):
        self.name, self.may_claim, self.claims, self.load = name, may_claim, claims, load
        self.backend = None

    def get(self):
        if self.backend is None:
            self.backend = self.load()
        return self.backend


_ROWS = []
_CANDIDATES = {}  # type -> the rows that may claim its values (often none)
PLAIN = set()


def register(name, may_claim, claims, load):
    _ROWS.append(_Row(name, may_claim, claims, load))
    _CANDIDATES.clear()
    PLAIN.clear()
    forget_idle_plain()


def has_marker(cls, name):
    return getattr(cls, "staging_backend", None) == name


def _candidates(cls):
    rows = _CANDIDATES.get(cls)
    if rows is None:
        rows = _CANDIDATES[cls] = tuple(row for row in _ROWS if row.may_claim(cls))
    return rows


def never_claims(cls):
    return not _candidates(cls)


def backend_for(value):
    for row in _candidates(type(value)):
        if row.claims(value):
            return row.get()
    return None


def loaded():
    """The backends loaded so far (a row loads its backend when it first claims a value)."""
    return [row.backend for row in _ROWS if row.backend is not None]


def backend_for_any(values):
    for value in values:
        backend = backend_for(value)
        if backend is not None:
            return backend
    return None

