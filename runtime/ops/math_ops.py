"""Elementwise arithmetic, comparison and logical ops, and matmul.

Contract: one registry row per op (kernel, shape rule, gradient rule); the user-facing
function converts its operands with `binary_operands` (the dtype rule) and calls `apply`.
"""

import numpy as np

from runtime.ops import infer
from runtime.ops.core import binary_operands, convert_to_tensor
from runtime.registry import OpDef, apply, register
from runtime.shapes import TensorShape


def _binary(op, x, y, name=None):
    x, y = binary_operands(x, y, op)
    return apply(op, [x, y], op_name=name)


register(OpDef("Add", np.add, infer.binary))
register(OpDef("Sub", np.subtract, infer.binary))
register(OpDef("Mul", np.multiply, infer.binary))
register(OpDef("Less", np.less, infer.comparison))
register(OpDef("Greater", np.greater, infer.comparison))
register(OpDef("Square", np.square, infer.unary))


def add(x, y, name=None):
    return _binary("Add", x, y, name)


def subtract(x, y, name=None):
    return _binary("Sub", x, y, name)


def multiply(x, y, name=None):
    return _binary("Mul", x, y, name)


def less(x, y, name=None):
    return _binary("Less", x, y, name)


def greater(x, y, name=None):
    return _binary("Greater", x, y, name)


def square(x, name=None):
    return apply("Square", [convert_to_tensor(x)], op_name=name)


def _matmul_infer(a, b):
    infer.same_dtype(a, b)
    if a.shape.rank is not None and a.shape.rank < 2 or b.shape.rank is not None and b.shape.rank < 2:
        raise ValueError(f"matmul needs tensors of rank >= 2, got shapes {a.shape} and {b.shape}")
    if a.shape.dims is None or b.shape.dims is None:
        return TensorShape(None), a.dtype
    k1, k2 = a.shape.dims[-1], b.shape.dims[-2]
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError(f"matmul: inner dimensions differ: {a.shape} @ {b.shape}")
    batch = infer.broadcast_shapes(TensorShape(a.shape.dims[:-2]), TensorShape(b.shape.dims[:-2]))
    return TensorShape(batch.dims + (a.shape.dims[-2], b.shape.dims[-1])), a.dtype


register(OpDef("MatMul", np.matmul, _matmul_infer))


def matmul(a, b, name=None):
    a, b = binary_operands(a, b, "matmul")
    return apply("MatMul", [a, b], op_name=name)
