"""`and`, `or`, `not` and chained comparisons of converted code.

Contract:
- `and_(*operands)` / `or_(*operands)`: each operand is a zero-argument thunk (the
  converters wrap every operand in a lambda); a first operand that is not callable is
  taken as the value itself. With Python values and eager tensors this is Python's
  `and`/`or`: operands evaluated left to right only as needed, the deciding operand
  returned. When an operand's value is staged (backends.py), the rest is staged in a
  conditional of its backend, so at
  run time the right-hand side is only computed (its print only printed) when the left
  side does not decide. With `test=True` (the converter passes it where the result is
  only tested for truth: an `if` condition, a loop test, the operand of `not`) a staged
  operator returns the truth of the deciding operand, a bool tensor, so operands of
  different dtypes (`x <= 0 or n + 1`) stage; on Python values nothing changes.
- `not_(x)`: `not x`; `logical_not` for a symbolic `x`.
- `compare_chain(left, op, thunk, op, thunk, ...)`: `left op a op b ...` where each
  comparison operand is computed once, left to right, stopping at the first false
  comparison (staged like `and`). `op` is the operator's source text (`'<'`, `'is not'`).
  The converter also sends single `in` / `not in` comparisons here: with a symbolic
  side, `x in t` is `reduce_any(equal(t, x))` (any element equals `x`).
"""

import operator

from autograph_py.runtime.operators.backends import backend_for, backend_for_any
from autograph_py.runtime.operators.truth import as_condition, truth_value
from autograph_py.runtime.tensor import Tensor


def _value(operand):
    return operand() if callable(operand) and not isinstance(operand, Tensor) else operand


def and_(*operands, test=False):
    value = _value(operands[0])
    rest = operands[1:]
    if not rest:
        return value
    decider = as_condition(value)
    backend = backend_for(decider)
    if backend is not None:
        return backend.cond(decider, lambda: _result(and_(*rest, test=test), test),
                            lambda: _result(value, test), ("the value of `and`",))
    return and_(*rest, test=test) if decider else value


def or_(*operands, test=False):
    value = _value(operands[0])
    rest = operands[1:]
    if not rest:
        return value
    decider = as_condition(value)
    backend = backend_for(decider)
    if backend is not None:
        return backend.cond(decider, lambda: _result(value, test),
                            lambda: _result(or_(*rest, test=test), test),
                            ("the value of `or`",))
    return value if decider else or_(*rest, test=test)


def _result(value, test):
    """A staged operator's result when `value` decides it: `value`, or only its truth in
    a test position."""
    return truth_value(value) if test else value


def not_(value):
    value = as_condition(value)
    backend = backend_for(value)
    return backend.not_(value) if backend is not None else not value


_COMPARISONS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: _contains(b, a), "not in": lambda a, b: not_(_contains(b, a)),
}


def _contains(container, item):
    """`item in container`; staged as "any element equals `item`" when either is staged
    (Python's `in` would ask `bool()` of a staged comparison)."""
    backend = backend_for_any((container, item))
    return backend.contains(container, item) if backend is not None else item in container


def compare_chain(left, *ops_and_thunks):
    op, right_thunk, rest = ops_and_thunks[0], ops_and_thunks[1], ops_and_thunks[2:]
    right = right_thunk()
    result = _COMPARISONS[op](left, right)
    if not rest:
        return result
    return and_(result, lambda: compare_chain(right, *rest))
