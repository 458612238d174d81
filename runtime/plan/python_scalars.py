"""Rank-0 integers and bools held as Python ints and bools inside a compiled plan.

Contract:
- `is_python_scalar(tensor)`: a value of static shape () with a bool or integer dtype is
  held by the generated function as a Python int or bool. An operator on Python ints
  costs 10-20 ns against 30-40 ns on numpy scalars, and indexing an array with a Python
  int is twice as fast as with a numpy one; that is most of a staged scalar loop.
  The plan compiler (runtime/plan/passes/) converts at the edges: `to_python(source)` for
  what numpy made (a fed 0-d array, a kernel's result), `to_numpy(source, np_dtype)` (a
  0-d array of the static dtype) for what a kernel reads and what the plan returns, so
  kernels and callers see exactly the values and dtypes they saw before.
- `has_python_form(op)`: whether the op has an exact form on Python scalars;
  `python_expression(op, args, kernel, ranges, divisor)` is that form's `Expression`,
  from its inputs' sources (Python scalars; a constant is its literal, `literal(value)`).
  Other ops keep numpy scalars or their kernels.
  Comparisons and logical ops are exact on Python values. Integer results carry the
  range of values they can take (from their inputs' ranges: a constant's value, `% 2`
  in [0, 1], otherwise the dtype's, `dtype_range`); one that can leave the dtype's range
  (`+ - *`, negation, `//` by -1 or a non-constant) is marked `unwrapped` and is wrapped
  (`wrap_line`, numpy's two's-complement wraparound, testing only the bounds it can
  pass: `i + 1` only the upper one) where it is bound, before anything but `+ - *` or
  negation reads it: those commute with the wraparound, so a folded chain (`3 * n + 1`)
  wraps once. An integer divisor that may be zero calls the kernel on numpy values when
  it is zero, so its ZeroDivisionError is raised unchanged. True division of integers,
  arithmetic on bools and every other op keep their kernels.
- A numpy bool (what a comparison of floats gives) stands for a Python bool as it is:
  every operator written on bools (`& | ^`, `not`, comparisons, `if`) gives the same
  answer on both, so it is never converted.
- `GLOBALS`: the names these sources use.
"""

import numpy as np
from autograph_py.runtime.plan.expressions import Expression

_COMPARISONS = {"Equal": "==", "NotEqual": "!=", "Less": "<", "LessEqual": "<=",
                "Greater": ">", "GreaterEqual": ">="}
_LOGICAL = {"LogicalAnd": "&", "LogicalOr": "|", "LogicalXor": "^"}
_RING = {"Add": "+", "Sub": "-", "Mul": "*"}  # commute with wrapping modulo 2**bits
RING_OPS = frozenset({*_RING, "Neg"})
_DIVISIONS = {"FloorDiv": "//", "FloorMod": "%"}
_KINDS = "biu"


def is_python_scalar(tensor):
    return tensor.shape.dims == () and tensor.dtype.np_dtype.kind in _KINDS


def to_python(source):
    return f"{source}.item()"


def to_numpy(source, np_dtype):
    return f"asarray({source}, dtype_{np.dtype(np_dtype).name})"


def has_python_form(op):
    """Whether `python_expression` gives `op` exactly on Python scalars."""
    if len(op.outputs) != 1 or op.attrs or not op.inputs or not all(
            is_python_scalar(t) for t in (*op.inputs, *op.outputs)) or \
            len({t.dtype for t in op.inputs}) != 1:
        return False
    if op.type in _COMPARISONS:
        return True
    boolean = op.inputs[0].dtype.np_dtype.kind == "b"
    if op.type in _LOGICAL or op.type == "LogicalNot":
        return boolean
    # numpy's bool arithmetic is logical, Python's is on ints
    return not boolean and op.type in (*_RING, "Neg", *_DIVISIONS)


def python_expression(op, args, kernel, ranges, divisor=None):
    """The expression of an op `has_python_form` accepts. `ranges` are the inputs'
    `(lowest, highest)` values (integers; None for bools), `divisor` the value of a
    constant divisor (FloorDiv, FloorMod). An integer result carries its range, and is
    `unwrapped` when that leaves its dtype's."""
    if op.type in _COMPARISONS:
        return Expression(f"{args[0]} {_COMPARISONS[op.type]} {args[1]}", True)
    if op.type in _LOGICAL:
        return Expression(f"{args[0]} {_LOGICAL[op.type]} {args[1]}", True)
    if op.type == "LogicalNot":
        return Expression(f"not {args[0]}", True)
    if op.type in _RING:
        source, pure = f"{args[0]} {_RING[op.type]} {args[1]}", True
    elif op.type == "Neg":
        source, pure = f"-{args[0]}", True
    else:
        source = f"{args[0]} {_DIVISIONS[op.type]} {args[1]}"
        pure = divisor is not None and divisor != 0
        if not pure:  # the kernel (on numpy values) raises its error for a zero divisor
            np_dtype = op.inputs[1].dtype.np_dtype
            failing = f"{kernel}({', '.join(to_numpy(a, np_dtype) for a in args)})"
            source = f"({source} if {args[1]} else {failing})"
    low, high = _range(op.type, ranges, divisor)
    dtype_low, dtype_high = dtype_range(op.outputs[0].dtype.np_dtype)
    return Expression(source, pure, unwrapped=low < dtype_low or high > dtype_high,
                      bounds=(low, high))


def dtype_range(np_dtype):
    info = np.iinfo(np_dtype)
    return int(info.min), int(info.max)


def _range(op_type, ranges, divisor):
    """The lowest and highest value of the op's exact (unwrapped) result."""
    (a, b), (c, d) = ranges[0], ranges[-1]
    if op_type == "Add":
        return a + c, b + d
    if op_type == "Sub":
        return a - d, b - c
    if op_type == "Mul":
        products = (a * c, a * d, b * c, b * d)
        return min(products), max(products)
    if op_type == "Neg":
        return -b, -a
    if op_type == "FloorMod":  # the sign of the divisor, smaller in size
        return min(0, c + 1), max(0, d - 1)
    if divisor:  # FloorDiv by a constant: monotonic in the dividend
        return (a // divisor, b // divisor) if divisor > 0 else (b // divisor, a // divisor)
    size = max(abs(a), abs(b))  # |x // y| <= |x| for |y| >= 1
    return -size, size


def literal(value):
    """The source of a Python int or bool constant (a literal is cheaper than a global)."""
    return repr(value) if value >= 0 or isinstance(value, bool) else f"({value!r})"


def wrap_line(name, np_dtype, value_range):
    """A statement wrapping `name` into `np_dtype`'s range as numpy's integers wrap, testing
    only the bounds `value_range` can pass (a comparison costs about 12 ns; the wrapping
    itself is rare); None when it cannot leave the dtype's range."""
    low, high = dtype_range(np_dtype)
    tests = [f"{name} > {high}"] * (value_range[1] > high) + \
        [f"{name} < {low}"] * (value_range[0] < low)
    if not tests:
        return None
    return f"if {' or '.join(tests)}: {name} = wrap_{np.dtype(np_dtype).name}({name})"


def _wrapper(np_dtype):
    info = np.iinfo(np_dtype)
    mask = (1 << info.bits) - 1
    return lambda value: ((value - info.min) & mask) + info.min


def scalar_view(array):
    """What a loop indexes a rank-1 integer or bool array through: a memoryview (26 ns
    an element, a Python scalar, against 70 ns for `x.item(i)`), or the array's list
    where the buffer's format has no memoryview items (a non-native byte order). Either
    raises IndexError where numpy would; the writer then asks numpy for its error."""
    return memoryview(array) if array.dtype.isnative else array.tolist()


_INTEGERS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
GLOBALS = {"asarray": np.asarray, "scalar_view": scalar_view,
           **{f"dtype_{np.dtype(t).name}": np.dtype(t) for t in (np.bool_, *_INTEGERS)},
           **{f"wrap_{np.dtype(t).name}": _wrapper(t) for t in _INTEGERS}}
