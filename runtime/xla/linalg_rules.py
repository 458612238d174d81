"""Lowerings of the linear algebra ops (runtime/ops/linalg_ops.py).

Contract: each row computes what the numpy kernel computes, float16 in float32 as the
kernel does. Where the kernel raises on values (a singular matrix to `inv`/`solve`, a
matrix that is not positive definite to `cholesky`, band bounds beyond the matrix), the
row records a check (`ctx.check`) raising the same InvalidArgumentError on return: XLA
gives inf or nan there instead of failing, so a non-finite result from a finite input
is the failure. The derivative JAX takes of each row is our rule (runtime/gradients/
linalg_grad.py): JAX's own for inv, det, solve and the linear ops; for cholesky a
custom JVP that symmetrizes the tangent, TensorFlow's convention (JAX's Cholesky reading
only the lower triangle would otherwise give the triangle's gradient). At a singular
matrix, det's compiled gradient is JAX's (finite, by cofactors) where ours raises.
"""

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops import linalg_ops
from autograph_py.runtime.xla.lowering import is_known
from autograph_py.runtime.xla.math_rules import out_dtype
from autograph_py.runtime.xla.table import register_lowering
from jax import lax


def _computable(x):
    return x.astype(jnp.float32) if x.dtype == jnp.float16 else x


def _swap(x):
    return jnp.swapaxes(x, -1, -2)


def _check_finite(ctx, op, inputs, result, message):
    """The kernel's error (`message` formatted with which matrix) where XLA gave a
    non-finite result for finite inputs."""
    finite_inputs = jnp.all(jnp.stack([jnp.all(jnp.isfinite(x)) for x in inputs]))
    which = "the matrix" if inputs[0].ndim == 2 else "a matrix of the batch"
    ctx.check(op, jnp.all(jnp.isfinite(result)) | ~finite_inputs, InvalidArgumentError,
              message.format(which))


@register_lowering("MatrixInverse")
def _inverse(ctx, op, x):
    x = _computable(x)
    result = jnp.linalg.inv(_swap(x) if op.attrs["adjoint"] else x)
    _check_finite(ctx, op, [x], result, linalg_ops.NOT_INVERTIBLE)
    return result.astype(out_dtype(op))


@register_lowering("MatrixDeterminant")
def _determinant(ctx, op, x):
    return jnp.linalg.det(_computable(x)).astype(out_dtype(op))


@register_lowering("MatrixSolve")
def _solve(ctx, op, matrix, rhs):
    matrix, rhs = _computable(matrix), _computable(rhs)
    result = jnp.linalg.solve(_swap(matrix) if op.attrs["adjoint"] else matrix, rhs)
    _check_finite(ctx, op, [matrix, rhs], result, linalg_ops.MATRIX_NOT_INVERTIBLE)
    return result.astype(out_dtype(op))


def _lower_triangle_cholesky(x):
    return lax.linalg.cholesky(x, symmetrize_input=False)  # reads the lower triangle


@jax.custom_jvp
def cholesky(x):
    return _lower_triangle_cholesky(x)


@cholesky.defjvp
def _cholesky_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    # A perturbation of A is taken as symmetric, as the numpy runtime's rule does.
    return jax.jvp(_lower_triangle_cholesky, (x,), ((dx + _swap(dx)) / 2,))


@register_lowering("Cholesky")
def _cholesky(ctx, op, x):
    x = _computable(x)
    result = cholesky(x)
    _check_finite(ctx, op, [x], result, linalg_ops.NOT_POSITIVE_DEFINITE)
    return result.astype(out_dtype(op))


@register_lowering("MatrixBandPart")
def _band_part(ctx, op, x, *band_input):
    band = op.attrs["band"]
    bounds = np.asarray(band) if band is not None else band_input[0]
    lower, upper = bounds[0], bounds[1]
    rows, columns = x.shape[-2:]
    for which, (bound, limit) in enumerate(((lower, rows), (upper, columns))):
        # A known bound is checked now (nothing is emitted when it holds).
        value = int(bound) if is_known(bounds) else None
        ctx.check(op, bound <= limit, InvalidArgumentError,
                  linalg_ops.band_error(which, limit, value))
    mask = linalg_ops.band_mask(lower, upper, rows, columns, jnp)
    return jnp.where(mask, x, jnp.zeros((), x.dtype))


@register_lowering("MatrixDiagPart")
def _diag_part(ctx, op, x):
    return jnp.diagonal(x, axis1=-2, axis2=-1)


@register_lowering("MatrixSetDiag")
def _set_diag(ctx, op, x, diagonal):
    index = np.arange(diagonal.shape[-1])
    return jnp.asarray(x).at[..., index, index].set(diagonal)
