"""Linear algebra, TensorFlow's `tf.linalg`: inverse, determinant, solve, Cholesky, and
the band, diagonal, transpose and identity helpers, all batched over leading dims.

Contract:
- A matrix argument has shape [..., M, N]: one matrix, or a batch of them over the
  leading dims. `inv`, `det` and `cholesky` take square matrices [..., M, M]; `solve`
  takes a square `matrix` [..., M, M] and `rhs` [..., M, K] with the same batch dims
  (no broadcasting, as TensorFlow's MatrixSolve). A rank below 2, a non-square matrix or
  mismatched dims is a ValueError naming the shapes: while the graph is built when the
  dims are known, else when the kernel runs.
- `inv`, `det`, `solve` and `cholesky` take floating dtypes only (a TypeError
  otherwise); float16 is computed in float32 and rounded back (LAPACK has no half
  precision). The band and diagonal ops take any dtype.
- Singular input, TensorFlow's behaviour: `inv` and `solve` raise
  `InvalidArgumentError` saying the matrix is not invertible (and which matrix of the
  batch), `det` gives 0; `cholesky` of a matrix that is not positive definite raises
  `InvalidArgumentError`. `cholesky` reads only the lower triangle (TensorFlow's and
  numpy's rule: the strictly upper part is ignored).
- `band_part(input, num_lower, num_upper)`: entries (m, n) with `m - n <= num_lower`
  and `n - m <= num_upper` kept (a negative bound keeps the whole triangle), others 0;
  a bound above the matrix's rows (num_lower) or columns (num_upper) is an
  `InvalidArgumentError`, as in TensorFlow. Bounds are attrs when known, else inputs
  (runtime/ops/int_args.py).
- `diag_part` gives the main diagonal [..., min(M, N)]; `set_diag(input, diagonal)`
  replaces it; `trace` sums it.
- `matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False,
  adjoint_b=False)`: TF's keywords; the adjoint is the transpose (no complex dtypes).
- Gradients: runtime/gradients/linalg_grad.py (TensorFlow's rules); lowerings for
  `jit_compile`: runtime/xla/linalg_rules.py.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops import infer, int_args
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import transpose
from autograph_py.runtime.ops.core import binary_operands, constant, convert_to_tensor
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.ops.special_math_ops import einsum
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, Tensor

# --- shapes ----------------------------------------------------------------------------


def _matrix_dims(shape, fn):
    """(batch dims, rows, columns) of a static shape, or None when its rank is unknown;
    a ValueError naming `fn` when the rank is below 2."""
    dims = TensorShape(shape).dims
    if dims is None:
        return None
    if len(dims) < 2:
        raise ValueError(f"{fn} needs a matrix or a batch of matrices (rank >= 2, shape "
                         f"[..., M, N]), got shape {TensorShape(shape)}")
    return dims[:-2], dims[-2], dims[-1]


def _square_dims(shape, fn):
    dims = _matrix_dims(shape, fn)
    if dims is not None and None not in dims[1:] and dims[1] != dims[2]:
        raise ValueError(f"{fn} needs square matrices (shape [..., M, M]), got shape "
                         f"{TensorShape(shape)}")
    return dims


def _float_square(spec, fn):
    infer.require_specs(infer.FLOAT, spec)
    return _square_dims(spec.shape, fn)


def _check_float_square(array, fn):
    infer.require_kind(array.dtype, infer.FLOAT)
    _square_dims(array.shape, fn)


def _swap_last_axes(array):
    return np.swapaxes(array, -1, -2)


# --- LAPACK calls --------------------------------------------------------------------------

# TensorFlow's failures, formatted with which matrix ("the matrix", "matrix [1] of the
# batch"); the XLA lowerings raise the same.
NOT_INVERTIBLE = "the input is not invertible: {} is singular"
MATRIX_NOT_INVERTIBLE = "the input matrix is not invertible: {} is singular"
NOT_POSITIVE_DEFINITE = "Cholesky decomposition was not successful: {} is not positive definite"


def _computable(array):
    return array.astype(np.float32) if array.dtype == np.float16 else array


def _which(fn, arrays):
    """Which matrix of the batch `fn` fails on, for the message."""
    batch = arrays[0].shape[:-2]
    if not batch:
        return "the matrix"
    for index in np.ndindex(batch):
        try:
            fn(*(a[index] for a in arrays))
        except np.linalg.LinAlgError:
            return f"matrix {list(index)} of the batch"
    return "a matrix of the batch"


def _lapack(fn, arrays, dtype, failure):
    """`fn(*arrays)` in `dtype`; numpy's LinAlgError becomes TensorFlow's
    InvalidArgumentError, `failure` formatted with the failing matrix."""
    arrays = [_computable(a) for a in arrays]
    try:
        result = fn(*arrays)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError(failure.format(_which(fn, arrays))) from None
    return np.asarray(result).astype(dtype, copy=False)


# --- inv ---------------------------------------------------------------------------------


def _inverse_kernel(x, adjoint):
    _check_float_square(x, "inv")
    return _lapack(np.linalg.inv, [_swap_last_axes(x) if adjoint else x], x.dtype,
                   NOT_INVERTIBLE)


def _inverse_infer(x, adjoint):
    _float_square(x, "inv")
    return x.shape, x.dtype


register(OpDef("MatrixInverse", _inverse_kernel, _inverse_infer))


def inv(input, adjoint=False, name=None):
    """The inverse of each square matrix of `input` (of its transpose with `adjoint`)."""
    return apply("MatrixInverse", [convert_to_tensor(input)], {"adjoint": bool(adjoint)},
                 op_name=name)


# --- det ---------------------------------------------------------------------------------


def _determinant_kernel(x):
    _check_float_square(x, "det")
    return np.asarray(np.linalg.det(_computable(x))).astype(x.dtype, copy=False)


def _determinant_infer(x):
    dims = _float_square(x, "det")
    return TensorShape(None if dims is None else dims[0]), x.dtype


register(OpDef("MatrixDeterminant", _determinant_kernel, _determinant_infer))


def det(input, name=None):
    """The determinant of each square matrix of `input`: shape [...] (0 when singular)."""
    return apply("MatrixDeterminant", [convert_to_tensor(input)], op_name=name)


# --- solve -------------------------------------------------------------------------------


def _solve_dims(matrix_shape, rhs_shape):
    """The result's dims (None: unknown rank) after checking the operands agree."""
    square = _square_dims(matrix_shape, "solve's matrix")
    rhs = _matrix_dims(rhs_shape, "solve's rhs")
    if square is None or rhs is None:
        return None if rhs is None else (*[None] * len(rhs[0]), rhs[1], rhs[2])
    described = f"matrix {TensorShape(matrix_shape)} and rhs {TensorShape(rhs_shape)}"
    if len(square[0]) != len(rhs[0]):
        raise ValueError(f"solve needs matrix and rhs of one rank (the same batch dims, "
                         f"no broadcasting), got {described}")
    batch = []
    for a, b in zip(square[0], rhs[0]):
        if a is not None and b is not None and a != b:
            raise ValueError(f"solve needs matrix and rhs with the same batch dims, got "
                             f"{described}")
        batch.append(b if a is None else a)
    rows = square[1] if square[1] is not None else square[2]
    if rows is not None and rhs[1] is not None and rows != rhs[1]:
        raise ValueError(f"solve needs rhs with as many rows as the matrix (shape "
                         f"[..., M, K] for a matrix [..., M, M]), got {described}")
    return (*batch, rows if rows is not None else rhs[1], rhs[2])


def _solve_kernel(matrix, rhs, adjoint):
    infer.require_kind(matrix.dtype, infer.FLOAT)
    _solve_dims(matrix.shape, rhs.shape)
    return _lapack(np.linalg.solve, [_swap_last_axes(matrix) if adjoint else matrix, rhs],
                   matrix.dtype, MATRIX_NOT_INVERTIBLE)


def _solve_infer(matrix, rhs, adjoint):
    infer.require_specs(infer.FLOAT, matrix, rhs)
    dtype = infer.same_dtype(matrix, rhs)
    return TensorShape(_solve_dims(matrix.shape, rhs.shape)), dtype


register(OpDef("MatrixSolve", _solve_kernel, _solve_infer))


def solve(matrix, rhs, adjoint=False, name=None):
    """X with `matrix @ X = rhs` for each matrix of the batch (`matrix^T` with `adjoint`)."""
    matrix, rhs = binary_operands(matrix, rhs, "solve")
    return apply("MatrixSolve", [matrix, rhs], {"adjoint": bool(adjoint)}, op_name=name)


# --- cholesky ----------------------------------------------------------------------------


def _cholesky_kernel(x):
    _check_float_square(x, "cholesky")
    return _lapack(np.linalg.cholesky, [x], x.dtype, NOT_POSITIVE_DEFINITE)


def _cholesky_infer(x):
    _float_square(x, "cholesky")
    return x.shape, x.dtype


register(OpDef("Cholesky", _cholesky_kernel, _cholesky_infer))


def cholesky(input, name=None):
    """The lower-triangular L with L @ L^T = input, for each matrix of the batch."""
    return apply("Cholesky", [convert_to_tensor(input)], op_name=name)


# --- band_part ---------------------------------------------------------------------------


def band_error(which, limit, value=None):
    """TensorFlow's message for a bound beyond the matrix (`which`: 0 num_lower, 1
    num_upper; `value` None when it is not known, as in a compiled check)."""
    name, dim = (("num_lower", "rows"), ("num_upper", "columns"))[which]
    got = "" if value is None else f", got {value}"
    return f"band_part: {name} must be negative or at most the number of {dim} ({limit}){got}"


def check_band(lower, upper, rows, columns):
    """TensorFlow's limits on the bounds (a dim of None: not known yet, no limit)."""
    for which, (bound, limit) in enumerate(((lower, rows), (upper, columns))):
        if limit is not None and bound > limit:
            raise InvalidArgumentError(band_error(which, limit, bound))


def band_mask(lower, upper, rows, columns, xp=np):
    """[rows, columns] bools: inside the band. `xp` is numpy or jax.numpy (traced bounds)."""
    row = xp.arange(rows)[:, None]
    column = xp.arange(columns)[None, :]
    return (((lower < 0) | (row - column <= lower)) &
            ((upper < 0) | (column - row <= upper)))


def _band_kernel(x, *band_input, band):
    _matrix_dims(x.shape, "band_part")
    lower, upper = (int(b) for b in int_args.resolve(band, band_input))
    rows, columns = x.shape[-2:]
    check_band(lower, upper, rows, columns)
    return np.where(band_mask(lower, upper, rows, columns), x, np.zeros((), x.dtype))


def _band_infer(x, *band_input, band):
    dims = _matrix_dims(x.shape, "band_part")
    known = int_args.known(band, band_input)
    if dims is not None and known is not None:
        check_band(int(known[0]), int(known[1]), *dims[1:])
    return x.shape, x.dtype


register(OpDef("MatrixBandPart", _band_kernel, _band_infer))


def band_part(input, num_lower, num_upper, name=None):
    """`input` with the entries outside the band zeroed (a negative bound: no limit)."""
    static, band_input = int_args.split([num_lower, num_upper], "band_part",
                                        "(num_lower, num_upper)", 1)
    return apply("MatrixBandPart", [convert_to_tensor(input)] + band_input, {"band": static},
                 op_name=name)


# --- diag_part, set_diag ----------------------------------------------------------------


def _diagonal_length(rows, columns):
    return None if rows is None or columns is None else min(rows, columns)


def _diag_part_kernel(x):
    _matrix_dims(x.shape, "diag_part")
    return np.diagonal(x, axis1=-2, axis2=-1)


def _diag_part_infer(x):
    dims = _matrix_dims(x.shape, "diag_part")
    if dims is None:
        return TensorShape(None), x.dtype
    return TensorShape((*dims[0], _diagonal_length(*dims[1:]))), x.dtype


register(OpDef("MatrixDiagPart", _diag_part_kernel, _diag_part_infer))


def diag_part(input, name=None):
    """The main diagonal of each matrix: shape [..., min(M, N)]."""
    return apply("MatrixDiagPart", [convert_to_tensor(input)], op_name=name)


def _check_diagonal(input_shape, diagonal_shape):
    dims = _matrix_dims(input_shape, "set_diag")
    wanted = TensorShape(None if dims is None else (*dims[0], _diagonal_length(*dims[1:])))
    if not TensorShape(diagonal_shape).is_compatible_with(wanted):
        raise ValueError(f"set_diag needs a diagonal of shape {wanted} (input's batch dims "
                         f"and min(M, N)) for an input of shape {TensorShape(input_shape)}, "
                         f"got {TensorShape(diagonal_shape)}")


def _set_diag_kernel(x, diagonal):
    _check_diagonal(x.shape, diagonal.shape)
    out = np.array(x)
    index = np.arange(diagonal.shape[-1])
    out[..., index, index] = diagonal
    return out


def _set_diag_infer(x, diagonal):
    dtype = infer.same_dtype(x, diagonal)
    _check_diagonal(x.shape, diagonal.shape)
    return x.shape, dtype


register(OpDef("MatrixSetDiag", _set_diag_kernel, _set_diag_infer))


def set_diag(input, diagonal, name=None):
    """`input` with its main diagonal replaced by `diagonal` [..., min(M, N)]."""
    input, diagonal = binary_operands(input, diagonal, "set_diag")
    return apply("MatrixSetDiag", [input, diagonal], op_name=name)


# --- composed: trace, matrix_transpose, matmul, eye ---------------------------------------


def trace(x, name=None):
    """The sum of each matrix's main diagonal: shape [...]."""
    return reduce_sum(diag_part(x), axis=-1, name=name)


def matrix_transpose(a, name=None, conjugate=False):
    """`a` with its last two axes swapped (`conjugate` changes nothing: real dtypes)."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    if rank is None:  # einsum's '...' keeps whatever leading axes there are
        return einsum("...ij->...ji", a, name=name)
    _matrix_dims(a.shape, "matrix_transpose")
    return transpose(a, [*range(rank - 2), rank - 1, rank - 2], name=name)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           name=None):
    """The product of the matrices of `a` and `b` (their last two axes), each transposed
    first when asked; leading (batch) axes broadcast."""
    if transpose_a or adjoint_a or transpose_b or adjoint_b:  # (the plain call stays cheap)
        for side, transposed, adjoint in (("a", transpose_a, adjoint_a),
                                          ("b", transpose_b, adjoint_b)):
            if transposed and adjoint:
                raise ValueError(f"matmul: only one of transpose_{side} and adjoint_{side} "
                                 f"can be True")
        a, b = binary_operands(a, b, "matmul")
        a = matrix_transpose(a) if transpose_a or adjoint_a else a
        b = matrix_transpose(b) if transpose_b or adjoint_b else b
    return m.matmul(a, b, name=name)


def _static_size(value, what, ndim=0):
    if isinstance(value, EagerTensor):
        value = value.numpy()
    elif isinstance(value, Tensor):
        known = infer.constant_value(value)  # a constant, or the shape of a known shape
        if known is None:
            raise TypeError(f"eye: {what} must be known while building the graph (a Python "
                            f"int, a constant or an eager tensor), got {value.name}, "
                            f"computed when the graph runs")
        value = known
    array = np.asarray(value)
    if array.dtype.kind not in "iu" or array.ndim != ndim or np.any(array < 0):
        raise TypeError(f"eye: {what} must be {'a list of ' if ndim else 'a '}non-negative "
                        f"integer{'s' if ndim else ''}, got {value!r}")
    return tuple(int(v) for v in array.reshape(-1))


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Identity matrices [*batch_shape, num_rows, num_columns] (square by default)."""
    rows, = _static_size(num_rows, "num_rows")
    columns, = (rows,) if num_columns is None else _static_size(num_columns, "num_columns")
    batch = () if batch_shape is None else _static_size(batch_shape, "batch_shape", 1)
    dtype = dtypes.as_dtype(dtype)
    identity = np.zeros((*batch, rows, columns), dtype.np_dtype)
    index = np.arange(min(rows, columns))
    identity[..., index, index] = 1
    return constant(identity, dtype, name=name)
