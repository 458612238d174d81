"""Python truthiness of a symbolic value, as a bool tensor: what a staged `if x:`,
`while x:`, `x if c else y`, `not x`, `x and y` and `assert x` test.

Contract: `truth(value)` returns `value` itself when it is a bool tensor; a numeric
tensor becomes `value != 0` (Python's `bool` of a number), so `if n % 2:` stages exactly
as Python runs it. Other dtypes (strings) are a TypeError that names the dtype. Shape
checks stay with the control-flow ops (a condition must be a scalar).
`truth_value(value)` is what a test sees of any value: `truth` of a symbolic one, else
Python's `bool` (an eager tensor must hold a single value).
"""

from autograph_py.runtime.tensor import is_symbolic


def truth(value):
    if not is_symbolic(value) or value.dtype.is_bool:
        return value
    if value.dtype.is_numeric:
        from autograph_py.runtime.ops.math_ops import not_equal

        return not_equal(value, 0)
    raise TypeError(f"cannot use a {value.dtype.name} tensor ({value!r}) as a condition")


def truth_value(value):
    return truth(value) if is_symbolic(value) else bool(value)
