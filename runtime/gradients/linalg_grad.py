"""Gradient rules of the linear algebra ops (runtime/ops/linalg_ops.py): TensorFlow's.

Contract, with A the input, Y the output, G the output gradient and ^T the transpose of
the last two axes (every rule is batched like its op):
- MatrixInverse: -Y^T G Y^T (with `adjoint`: -Y G^T Y).
- MatrixDeterminant: G det(A) A^-T, through MatrixInverse, so the gradient at a singular
  A raises InvalidArgumentError, as TensorFlow's does.
- MatrixSolve (A X = B): dB = solve(A^T, G), dA = -dB X^T (with `adjoint`: dB =
  solve(A, G), dA = -X dB^T).
- Cholesky (A = L L^T): with Φ(M) the lower triangle of M with its diagonal halved,
  dA = sym(L^-T Φ(L^T G) L^-1), sym(M) = (M + M^T) / 2. The op reads only A's lower
  triangle, but the rule treats A as symmetric (TensorFlow's convention): a perturbation
  of A is taken as symmetric, so the gradient is shared between (i, j) and (j, i).
- MatrixBandPart, MatrixDiagPart, MatrixSetDiag are linear: their adjoints (the band of
  G; G's diagonal in zeros; G without its diagonal and G's diagonal).
The rules are written with the ops, so they differentiate again.
"""

from autograph_py.runtime.ops import linalg_ops as linalg
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import expand_dims
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.registry import apply, register_gradient


@register_gradient("MatrixInverse")
def _inverse(op, grad):
    y = op.outputs[0]
    adjoint = op.attrs["adjoint"]
    inner = linalg.matmul(grad, y, transpose_a=adjoint, transpose_b=not adjoint)
    return (m.negative(linalg.matmul(y, inner, transpose_a=not adjoint)),)


@register_gradient("MatrixDeterminant")
def _determinant(op, grad):
    scale = expand_dims(expand_dims(m.multiply(grad, op.outputs[0]), -1), -1)
    return (m.multiply(scale, linalg.inv(op.inputs[0], adjoint=True)),)


@register_gradient("MatrixSolve")
def _solve(op, grad):
    a, x = op.inputs[0], op.outputs[0]
    adjoint = op.attrs["adjoint"]
    grad_rhs = linalg.solve(a, grad, adjoint=not adjoint)
    if adjoint:
        grad_matrix = linalg.matmul(x, grad_rhs, transpose_b=True)
    else:
        grad_matrix = linalg.matmul(grad_rhs, x, transpose_b=True)
    return m.negative(grad_matrix), grad_rhs


@register_gradient("Cholesky")
def _cholesky(op, grad):
    lower = op.outputs[0]
    lower_inverse = linalg.inv(lower)
    middle = linalg.matmul(lower, grad, transpose_a=True)
    middle = linalg.set_diag(linalg.band_part(middle, -1, 0),
                             m.multiply(linalg.diag_part(middle), 0.5))
    grad_a = linalg.matmul(linalg.matmul(lower_inverse, middle, transpose_a=True),
                           lower_inverse)
    return (m.multiply(m.add(grad_a, linalg.matrix_transpose(grad_a)), 0.5),)


@register_gradient("MatrixBandPart")
def _band_part(op, grad):
    # The same band, its bounds as the op holds them (attrs, or the same tensor inputs).
    band = apply("MatrixBandPart", [grad, *op.inputs[1:]], op.attrs)
    return (band, *[None] * (len(op.inputs) - 1))


@register_gradient("MatrixDiagPart")
def _diag_part(op, grad):
    return (linalg.set_diag(zeros_like(op.inputs[0]), grad),)


@register_gradient("MatrixSetDiag")
def _set_diag(op, grad):
    diagonal = op.inputs[1]
    return linalg.set_diag(grad, zeros_like(diagonal)), linalg.diag_part(grad)
