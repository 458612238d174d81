"""`and`, `or`, `not` and chained comparisons of converted code.

Contract:
- `and_(*operands)` / `or_(*operands)`: each operand is a zero-argument thunk (the
  converters wrap every operand in a lambda); a first operand that is not callable is
  taken as the value itself. With Python values and eager tensors this is Python's
  `and`/`or`: operands evaluated left to right only as needed, the deciding operand
  returned. When an operand's value is symbolic, the rest is staged in a `cond`, so at
  run time the right-hand side is only computed (its print only printed) when the left
  side does not decide.
- `not_(x)`: `not x`; `logical_not` for a symbolic `x`.
- `compare_chain(left, op, thunk, op, thunk, ...)`: `left op a op b ...` where each
  comparison operand is computed once, left to right, stopping at the first false
  comparison (staged like `and`). `op` is the operator's source text (`'<'`, `'is not'`).
"""

import operator

from autograph_py.runtime.control_flow import cond
from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.tensor import Tensor, is_symbolic


def _value(operand):
    return operand() if callable(operand) and not isinstance(operand, Tensor) else operand


def and_(*operands):
    value = _value(operands[0])
    rest = operands[1:]
    if not rest:
        return value
    if is_symbolic(value):
        return cond(truth(value), lambda: and_(*rest), lambda: value)
    return and_(*rest) if value else value


def or_(*operands):
    value = _value(operands[0])
    rest = operands[1:]
    if not rest:
        return value
    if is_symbolic(value):
        return cond(truth(value), lambda: value, lambda: or_(*rest))
    return value if value else or_(*rest)


def not_(value):
    if is_symbolic(value):
        from autograph_py.runtime.ops.math_ops import logical_not

        return logical_not(truth(value))
    return not value


_COMPARISONS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def compare_chain(left, *ops_and_thunks):
    op, right_thunk, rest = ops_and_thunks[0], ops_and_thunks[1], ops_and_thunks[2:]
    right = right_thunk()
    result = _COMPARISONS[op](left, right)
    if not rest:
        return result
    return and_(result, lambda: compare_chain(right, *rest))
