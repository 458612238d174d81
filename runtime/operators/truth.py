"""Python truthiness of a symbolic value, as a bool tensor: what a staged `if x:`,
`while x:`, `x if c else y`, `not x`, `x and y` and `assert x` test.

Contract: `truth(value)` returns `value` itself when it is a bool tensor; a numeric
tensor becomes `value != 0` (Python's `bool` of a number), so `if n % 2:` stages exactly
as Python runs it. Other dtypes (strings) are a TypeError that names the dtype. Shape
checks stay with the control-flow ops (a condition must be a scalar).
`truth_value(value)` is what a test sees of any value: the staging backend's truth of a
staged one (backends.py), else Python's `bool` (an eager tensor must hold a single value).
`as_condition(value)` is what a value stands for as a condition before dispatch: a
`TensorList` (a list a staged loop resized) is its length > 0, as Python's truth of a
list, a bool tensor unless the length is known while tracing; other values are
themselves. `truth` and `truth_value` apply it.
"""

from autograph_py.runtime.operators.backends import backend_for
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.ops.math_ops import greater, not_equal
from autograph_py.runtime.tensor import is_symbolic


def as_condition(value):
    if not isinstance(value, TensorList):
        return value
    length = value.length()
    if isinstance(length, int):
        return length > 0
    return greater(length, 0)


def truth(value):
    value = as_condition(value)
    if not is_symbolic(value) or value.dtype.is_bool:
        return value
    if value.dtype.is_numeric:
        return not_equal(value, 0)
    raise TypeError(f"cannot use a {value.dtype.name} tensor ({value!r}) as a condition")


def truth_value(value):
    value = as_condition(value)
    backend = backend_for(value)
    return backend.truth(value) if backend is not None else bool(value)
