"""einsum, reduce_logsumexp and norm (TensorFlow's names and argument order).

Contract:
- `einsum(equation, *inputs)`: Einstein summation (runtime/ops/einsum_equation.py parses
  the equation once for kernel, shape rule and gradient). Operands are numeric, of one
  dtype. A letter's dims must agree across operands; only '...' dims broadcast (size 1
  against n), as in TensorFlow.
- `reduce_logsumexp(input_tensor, axis=None, keepdims=False)`: log(sum(exp(x))) computed
  stably (the max along the axes is taken out first, and only when it is finite, so
  rows of -inf give -inf and no nan); floats only. Composed of existing ops, as TF does,
  so its gradient (softmax) comes from theirs.
- `norm(tensor, ord='euclidean', axis=None, keepdims=None)`: vector norms over one axis
  (or the whole tensor when axis is None): 'euclidean'/'fro'/2, 1, inf, any p > 0;
  matrix norms over a pair of axes: 'euclidean'/'fro', 1 (max column sum), inf (max row
  sum). Matrix ord 2 (the largest singular value) is refused: docs/limitations.md.
  Floats only. Composed of existing ops; the gradient of the euclidean norm at 0 is nan,
  as TensorFlow's.
"""

import math

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops import reduction_ops as r
from autograph_py.runtime.ops.array_ops import squeeze, where
from autograph_py.runtime.ops.core import (
    convert_to_tensor,
    identity,
    same_dtype_tensors,
    stop_gradient,
)
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.ops.einsum_equation import ELLIPSIS, parse
from autograph_py.runtime.ops.unary_math_ops import is_finite
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape

# --- einsum ---------------------------------------------------------------------------


def label_sizes(equation, dims_of_inputs):
    """{label: size} from the operands' dims (None where unknown); raises a ValueError
    when one label has two different sizes (a '...' label may also be 1)."""
    sizes = {}
    for labels, dims in zip(equation.inputs, dims_of_inputs):
        for label, dim in zip(labels, dims or (None,) * len(labels)):
            seen = sizes.get(label)
            if dim is None or seen == dim:
                sizes.setdefault(label, None)
                continue
            if seen is None:
                sizes[label] = dim
            elif label in equation.broadcast and 1 in (seen, dim):
                sizes[label] = max(seen, dim)
            else:
                raise ValueError(f"einsum equation {equation.source!r}: label {label!r} has "
                                 f"sizes {seen} and {dim} in different operands")
    return sizes


def _einsum_kernel(*arrays, equation):
    for a in arrays:
        infer.require_kind(a.dtype, infer.NUMERIC)
    if len({a.dtype for a in arrays}) > 1:
        raise TypeError("einsum operands must have one dtype, got "
                        + ", ".join(str(a.dtype) for a in arrays))
    parsed = parse(equation, [a.ndim for a in arrays])
    label_sizes(parsed, [a.shape for a in arrays])
    out = np.einsum(str(parsed), *arrays, optimize=len(arrays) > 2)
    return np.asarray(out, dtype=arrays[0].dtype)


def _einsum_infer(*specs, equation):
    infer.require_specs(infer.NUMERIC, *specs)
    dtype = infer.same_dtype(*specs)
    ranks = [s.shape.rank for s in specs]
    if None in ranks and ELLIPSIS in equation:
        return TensorShape(None), dtype
    parsed = parse(equation, ranks)
    sizes = label_sizes(parsed, [s.shape.dims for s in specs])
    return TensorShape(sizes[label] for label in parsed.output), dtype


register(OpDef("Einsum", _einsum_kernel, _einsum_infer))


def einsum(equation, *inputs, **kwargs):
    """Einstein summation of `inputs` as `equation` says ('ij,jk->ik' is a matmul)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"einsum got unexpected keyword arguments {sorted(kwargs)}")
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])  # einsum(eq, [a, b]) as TF accepts it
    tensors = same_dtype_tensors(inputs, "einsum")
    return apply("Einsum", tensors, {"equation": str(equation)}, op_name=name)


# --- reduce_logsumexp -----------------------------------------------------------------


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(input_tensor))) over `axis`, without overflow."""
    x = convert_to_tensor(input_tensor)
    infer.require_specs(infer.FLOAT, x)
    top = r.reduce_max(x, axis=axis, keepdims=True)
    # A row of -inf (or one holding inf) would make x - top nan: shift by 0 there.
    shift = stop_gradient(where(is_finite(top), top, zeros_like(top)))
    total = m.log(r.reduce_sum(m.exp(m.subtract(x, shift)), axis=axis, keepdims=keepdims))
    # Summing the size-1 axes of `shift` drops them whatever x's rank (known or not).
    return m.add(total, r.reduce_sum(shift, axis=axis, keepdims=keepdims), name=name)


# --- norm -----------------------------------------------------------------------------

_EUCLIDEAN = ("euclidean", "fro")


def _vector_norm(x, ord, axis, keepdims):
    if ord in _EUCLIDEAN or ord == 2:
        return m.sqrt(r.reduce_sum(m.square(x), axis=axis, keepdims=keepdims))
    magnitude = m.abs_(x)
    if ord == 1:
        return r.reduce_sum(magnitude, axis=axis, keepdims=keepdims)
    if ord == math.inf:
        return r.reduce_max(magnitude, axis=axis, keepdims=keepdims)
    return m.pow_(r.reduce_sum(m.pow_(magnitude, float(ord)), axis=axis, keepdims=keepdims),
                  1.0 / float(ord))


def _matrix_norm(x, ord, axis, keepdims):
    rows, columns = axis
    if ord in _EUCLIDEAN:
        return m.sqrt(r.reduce_sum(m.square(x), axis=list(axis), keepdims=keepdims))
    # ord 1: the largest column sum (sum over rows); inf: the largest row sum.
    summed, maxed = (rows, columns) if ord == 1 else (columns, rows)
    sums = r.reduce_sum(m.abs_(x), axis=summed, keepdims=True)
    result = r.reduce_max(sums, axis=maxed, keepdims=True)
    return result if keepdims else squeeze(result, axis=list(axis))


def _norm_axis(axis, rank):
    if axis is None:
        return None
    axes = [int(a) for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
    if len(axes) not in (1, 2):
        raise ValueError(f"norm: axis must be None, an int or a pair of ints, got {axis!r}")
    if rank is not None:
        normalized = [infer.normalize_axis(a, rank) for a in axes]
        if len(set(normalized)) != len(normalized):
            raise ValueError(f"norm: the two axes must differ, got {axis!r}")
    return axes[0] if len(axes) == 1 else tuple(axes)


def _check_ord(ord, matrix):
    if matrix:
        if ord in _EUCLIDEAN or ord in (1, math.inf):
            return
        if ord == 2:
            raise ValueError("norm: the matrix 2-norm (largest singular value) is not "
                             "supported; use ord='fro', 1 or inf")
        raise ValueError(f"norm: a matrix norm's ord must be 'fro', 'euclidean', 1 or inf, "
                         f"got {ord!r}")
    if ord in _EUCLIDEAN:
        return
    if isinstance(ord, str) or not isinstance(ord, (int, float)) or not ord > 0:
        raise ValueError(f"norm: a vector norm's ord must be 'euclidean', 'fro', inf or a "
                         f"number > 0, got {ord!r}")


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """The `ord` norm of `tensor`'s vectors (one axis, or all) or matrices (two axes)."""
    x = convert_to_tensor(tensor)
    infer.require_specs(infer.FLOAT, x)
    axis = _norm_axis(axis, x.shape.rank)
    matrix = isinstance(axis, tuple)
    _check_ord(ord, matrix)
    keepdims = bool(keepdims)
    result = (_matrix_norm if matrix else _vector_norm)(x, ord, axis, keepdims)
    return result if name is None else identity(result, name=name)
