"""Elementwise arithmetic, comparison and logical ops, and matmul.

Contract: one registry row per op (kernel, shape rule, gradient rule — gradients are set
later with `register_gradient`); each line below registers a row and defines the user
function. Binary ops need operands of one dtype (Python scalars adapt losslessly) and
broadcast like numpy. Result dtypes: the input dtype, except comparisons (bool) and
`divide` (true division: int8/int16/uint8 → float32, int32/int64 → float64).
`floordiv` and `mod` follow Python (floor) semantics; an integer zero divisor raises
ZeroDivisionError.
"""

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import binary_operands
from autograph_py.runtime.ops.elementwise import (
    binary,
    boolean,
    integer_division,
    true_division,
    unary,
)
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape

N, F, B, ANY = infer.NUMERIC, infer.FLOAT, infer.BOOL, infer.ANY


def _sigmoid(x):
    # tanh form: no overflow for large |x|, unlike 1 / (1 + exp(-x)).
    return 0.5 * (np.tanh(0.5 * x) + 1)


negative = unary("Neg", "negative", np.negative, N, "-x elementwise.")
abs_ = unary("Abs", "abs", np.abs, N, "|x| elementwise.")
square = unary("Square", "square", np.square, N, "x * x elementwise.")
sqrt = unary("Sqrt", "sqrt", np.sqrt, F, "Square root (nan for negative x).")
exp = unary("Exp", "exp", np.exp, F, "e ** x elementwise.")
log = unary("Log", "log", np.log, F, "Natural logarithm (-inf at 0, nan below).")
tanh = unary("Tanh", "tanh", np.tanh, F, "Hyperbolic tangent elementwise.")
sigmoid = unary("Sigmoid", "sigmoid", _sigmoid, F, "1 / (1 + exp(-x)) elementwise.")
logical_not = unary("LogicalNot", "logical_not", np.logical_not, B, "not x, on bool tensors.")

add = binary("Add", "add", np.add, N, "x + y.")
subtract = binary("Sub", "subtract", np.subtract, N, "x - y.")
multiply = binary("Mul", "multiply", np.multiply, N, "x * y.")
divide = binary("RealDiv", "divide", np.true_divide, N,
                "x / y, true division (integers give floats, like TensorFlow's truediv).",
                result=true_division, cast_inputs=True)
floordiv = binary("FloorDiv", "floordiv", integer_division(np.floor_divide), N,
                  "x // y, rounding toward -inf.")
mod = binary("FloorMod", "mod", integer_division(np.mod), N,
             "x % y with the sign of y (Python semantics).")
pow_ = binary("Pow", "pow", np.power, N,
              "x ** y (integer tensors cannot take negative integer exponents).")
maximum = binary("Maximum", "maximum", np.maximum, N, "Elementwise maximum.")
minimum = binary("Minimum", "minimum", np.minimum, N, "Elementwise minimum.")

equal = binary("Equal", "equal", np.equal, ANY, "x == y elementwise (bool).", result=boolean)
not_equal = binary("NotEqual", "not_equal", np.not_equal, ANY, "x != y elementwise (bool).",
                   result=boolean)
less = binary("Less", "less", np.less, N, "x < y elementwise (bool).", result=boolean)
less_equal = binary("LessEqual", "less_equal", np.less_equal, N, "x <= y elementwise (bool).",
                    result=boolean)
greater = binary("Greater", "greater", np.greater, N, "x > y elementwise (bool).",
                 result=boolean)
greater_equal = binary("GreaterEqual", "greater_equal", np.greater_equal, N,
                       "x >= y elementwise (bool).", result=boolean)

logical_and = binary("LogicalAnd", "logical_and", np.logical_and, B, "x and y, on bools.")
logical_or = binary("LogicalOr", "logical_or", np.logical_or, B, "x or y, on bools.")
logical_xor = binary("LogicalXor", "logical_xor", np.logical_xor, B, "x != y, on bools.")


def matmul_shape(a, b):
    """The result shape of matmul on shapes `a` and `b` (TensorShapes, dims may be
    unknown), or the ValueError every mode raises: the shape rule while building, the
    kernel (eagerly, or for dims known only when it runs) and the XLA rule alike."""
    if a.rank is not None and a.rank < 2 or b.rank is not None and b.rank < 2:
        raise ValueError(f"matmul needs tensors of rank >= 2, got shapes {a} and {b}")
    if a.dims is None or b.dims is None:
        return TensorShape(None)
    k1, k2 = a.dims[-1], b.dims[-2]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"matmul: inner dimensions differ: {a} @ {b} (the last dimension "
                         f"of the first, {k1}, must equal the second-to-last of the second, "
                         f"{k2})")
    try:
        batch = infer.broadcast_shapes(TensorShape(a.dims[:-2]), TensorShape(b.dims[:-2]))
    except ValueError:
        raise ValueError(f"matmul: the batch dimensions of {a} and {b} (all but the last "
                         "two) cannot be broadcast together") from None
    return TensorShape(batch.dims + (a.dims[-2], b.dims[-1]))


def _matmul_kernel(a, b):
    infer.require_kind(a.dtype, N)
    if a.ndim < 2 or b.ndim < 2 or a.shape[-1] != b.shape[-2] or \
            a.ndim > 2 and b.ndim > 2 and a.shape[:-2] != b.shape[:-2]:
        matmul_shape(TensorShape(a.shape), TensorShape(b.shape))  # raises what infer raises
    return np.matmul(a, b)


def _matmul_infer(a, b):
    infer.require_specs(N, a, b)
    infer.same_dtype(a, b)
    return matmul_shape(a.shape, b.shape), a.dtype


register(OpDef("MatMul", _matmul_kernel, _matmul_infer))


def matmul(a, b, name=None):
    """Matrix product of the last two axes; leading (batch) axes broadcast."""
    a, b = binary_operands(a, b, "matmul")
    return apply("MatMul", [a, b], op_name=name)
