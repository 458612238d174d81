"""Shape-manipulating and selection ops: reshape, transpose, expand_dims, squeeze, concat,
stack, unstack, gather, shape/size/rank, cast, where.

Contract: static arguments (axes, perms, static shapes) are attrs; kernels and infer
rules validate them with the same helpers (`infer.normalize_axis`), so eager and graph
mode reject the same inputs with the same message. Ops taking several tensors (concat,
stack, where) need one dtype; Python scalars and lists adapt to the tensors' dtype when
lossless. `gather` takes indices in [0, size) only, TensorFlow's rule (its CPU kernel):
any other index, -1 included, is an `IndexNotInRangeError` (an InvalidArgumentError and an
IndexError) with TensorFlow's message, "indices[1] = -1 is not in [0, 3)". Python's
negative indexing is `x[-1]` (StridedSlice), not gather.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.errors import IndexNotInRangeError
from autograph_py.runtime.ops import infer, shape_args
from autograph_py.runtime.ops.core import (
    binary_operands,
    convert_to_tensor,
    same_dtype_tensors,
)
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape

# --- reshape --------------------------------------------------------------------------


def _reshape_kernel(x, *shape_input, shape):
    return x.reshape(shape_args.resolve(shape, shape_input))


def _reshape_infer(x, *shape_input, shape):
    target = shape_args.infer_target(shape, shape_input)
    if target is None:
        return TensorShape(None), x.dtype
    if sum(d == -1 for d in target) > 1 or any(d is not None and d < -1 for d in target):
        raise ValueError(f"invalid target shape {target}: dims must be >= 0, with at most "
                         "one -1")
    size = x.shape.num_elements()
    known = int(np.prod([d for d in target if d not in (None, -1)], dtype=np.int64))
    if size is None or None in target:
        return TensorShape(None if d == -1 else d for d in target), x.dtype
    if -1 in target:
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape a tensor of {size} elements to shape {target}")
        target = tuple(size // known if d == -1 else d for d in target)
    elif known != size:
        raise ValueError(f"cannot reshape a tensor of {size} elements to shape {target}")
    return TensorShape(target), x.dtype


register(OpDef("Reshape", _reshape_kernel, _reshape_infer))


def reshape(tensor, shape, name=None):
    """`tensor` with a new shape of as many elements; one dim may be -1 (inferred)."""
    static, shape_input = shape_args.split(shape, "reshape")
    return apply("Reshape", [convert_to_tensor(tensor)] + shape_input, {"shape": static},
                 op_name=name)


# --- transpose, expand_dims, squeeze --------------------------------------------------


def _check_perm(perm, rank):
    if perm is not None and sorted(a % rank if -rank <= a < rank else a for a in perm) != list(
            range(rank)):
        raise ValueError(f"perm {list(perm)} is not a permutation of the axes of a tensor of "
                         f"rank {rank}")


def _transpose_kernel(x, perm):
    _check_perm(perm, x.ndim)
    return np.transpose(x, perm)


def _transpose_infer(x, perm):
    dims = x.shape.dims
    if dims is None:
        return (TensorShape(None) if perm is None else TensorShape([None] * len(perm))), x.dtype
    _check_perm(perm, len(dims))
    perm = range(len(dims) - 1, -1, -1) if perm is None else perm
    return TensorShape(dims[a] for a in perm), x.dtype


register(OpDef("Transpose", _transpose_kernel, _transpose_infer))


def transpose(a, perm=None, name=None):
    """Permute the axes (`perm`; reversed by default)."""
    perm = None if perm is None else tuple(int(p) for p in perm)
    return apply("Transpose", [convert_to_tensor(a)], {"perm": perm}, op_name=name)


def _expand_dims_kernel(x, axis):
    axis = infer.normalize_axis(axis, x.ndim, extra=1)
    shape = x.shape
    return x.reshape(shape[:axis] + (1,) + shape[axis:])  # (np.expand_dims costs 2 µs)


def _expand_dims_infer(x, axis):
    if x.shape.dims is None:
        return TensorShape(None), x.dtype
    dims = list(x.shape.dims)
    dims.insert(infer.normalize_axis(axis, len(dims), extra=1), 1)
    return TensorShape(dims), x.dtype


register(OpDef("ExpandDims", _expand_dims_kernel, _expand_dims_infer))


def expand_dims(input, axis, name=None):
    """Insert a dimension of size 1 at `axis` (-1 appends)."""
    return apply("ExpandDims", [convert_to_tensor(input)], {"axis": int(axis)}, op_name=name)


def _squeezed_axes(dims, axis):
    """The axes squeeze removes; a requested axis whose size is known and not 1 is an error."""
    if axis is None:
        return tuple(i for i, d in enumerate(dims) if d == 1)
    axes = infer.normalize_axes(axis, len(dims))
    for a in axes:
        if dims[a] is not None and dims[a] != 1:
            raise ValueError(f"cannot squeeze axis {a}: its size is {dims[a]}, not 1")
    return axes


def _squeeze_kernel(x, axis):
    return np.squeeze(x, axis=_squeezed_axes(x.shape, axis))


def _squeeze_infer(x, axis):
    dims = x.shape.dims
    if dims is None or axis is None and None in dims:
        return TensorShape(None), x.dtype  # which dims are 1 is only known at run time
    axes = _squeezed_axes(dims, axis)
    return TensorShape(d for i, d in enumerate(dims) if i not in axes), x.dtype


register(OpDef("Squeeze", _squeeze_kernel, _squeeze_infer))


def squeeze(input, axis=None, name=None):
    """Remove dimensions of size 1 (all of them, or those in `axis`)."""
    if axis is not None:
        axis = (int(axis),) if np.ndim(axis) == 0 else tuple(int(a) for a in axis)
    return apply("Squeeze", [convert_to_tensor(input)], {"axis": axis}, op_name=name)


# --- concat, stack, unstack -----------------------------------------------------------


def _concat_infer(*values, axis):
    dtype = infer.same_dtype(*values)
    ranks = {v.shape.rank for v in values} - {None}
    if len(ranks) > 1:
        raise ValueError(f"cannot concatenate tensors of different ranks {sorted(ranks)}")
    if not ranks:
        return TensorShape(None), dtype
    rank = ranks.pop()
    if rank == 0:
        raise ValueError("cannot concatenate scalars; use stack")
    axis = infer.normalize_axis(axis, rank)
    dims = []
    for i in range(rank):
        column = [v.shape.dims[i] if v.shape.dims is not None else None for v in values]
        if i == axis:
            dims.append(None if None in column else sum(column))
            continue
        known = {d for d in column if d is not None}
        if len(known) > 1:
            raise ValueError(f"dimension {i} differs: {', '.join(str(v.shape) for v in values)}"
                             f" (concatenating along axis {axis})")
        dims.append(known.pop() if known else None)
    return TensorShape(dims), dtype


def _concat_kernel(*values, axis):
    if values[0].ndim == 0:
        raise ValueError("cannot concatenate scalars; use stack")
    return np.concatenate(values, axis=infer.normalize_axis(axis, values[0].ndim))


register(OpDef("ConcatV2", _concat_kernel, _concat_infer))


def concat(values, axis, name=None):
    """Join tensors of one dtype and rank along an existing `axis`."""
    return apply("ConcatV2", same_dtype_tensors(values, "concat"), {"axis": int(axis)},
                 op_name=name)


def _merged_shape(values):
    shape = TensorShape(None)
    for v in values:
        if not shape.is_compatible_with(v.shape):
            raise ValueError("all tensors must have the same shape, got "
                             + ", ".join(str(u.shape) for u in values))
        if shape.dims is None:
            shape = v.shape
        elif v.shape.dims is not None:
            shape = TensorShape(a if a is not None else b for a, b in zip(shape.dims, v.shape.dims))
    return shape


def _stack_kernel(*values, axis):
    return np.stack(values, axis=infer.normalize_axis(axis, values[0].ndim, extra=1))


def _stack_infer(*values, axis):
    dtype = infer.same_dtype(*values)
    shape = _merged_shape(values)
    if shape.dims is None:
        return TensorShape(None), dtype
    dims = list(shape.dims)
    dims.insert(infer.normalize_axis(axis, len(dims), extra=1), len(values))
    return TensorShape(dims), dtype


register(OpDef("Pack", _stack_kernel, _stack_infer))


def stack(values, axis=0, name=None):
    """Join tensors of one shape and dtype along a new `axis`."""
    stacked = getattr(values, "_as_tensor", None)
    if stacked is not None and not isinstance(values, (list, tuple)):
        # A list grown in a staged loop (a TensorList) already is its stacked tensor.
        tensor = stacked()
        return tensor if int(axis) == 0 else _move_first_axis(tensor, int(axis))
    return apply("Pack", same_dtype_tensors(values, "stack"), {"axis": int(axis)}, op_name=name)


def _move_first_axis(tensor, axis):
    rank = tensor.shape.rank
    axis = axis % (rank) if rank else 0
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return transpose(tensor, perm)


def _unstack_kernel(x, axis, num):
    axis = infer.normalize_axis(axis, x.ndim)
    if x.shape[axis] != num:
        raise ValueError(f"expected {num} entries along axis {axis}, got shape {x.shape}")
    return tuple(np.moveaxis(x, axis, 0))


def _unstack_infer(x, axis, num):
    if x.shape.dims is None:
        return [(TensorShape(None), x.dtype)] * num
    axis = infer.normalize_axis(axis, len(x.shape.dims))
    dims = x.shape.dims[:axis] + x.shape.dims[axis + 1:]
    return [(TensorShape(dims), x.dtype)] * num


register(OpDef("Unpack", _unstack_kernel, _unstack_infer, num_outputs=-1))


def unstack(value, num=None, axis=0, name=None):
    """The list of slices of `value` along `axis` (its size must be known, or pass num)."""
    value = convert_to_tensor(value)
    if num is None:
        if value.shape.dims is None:
            raise ValueError(f"unstack: cannot infer the number of outputs from shape "
                             f"{value.shape}; pass num")
        num = value.shape.dims[infer.normalize_axis(axis, len(value.shape.dims))]
        if num is None:
            raise ValueError(f"unstack: dimension {axis} of shape {value.shape} is unknown; "
                             "pass num")
    return list(apply("Unpack", [value], {"axis": int(axis), "num": int(num)}, op_name=name))


# --- gather ---------------------------------------------------------------------------


def gather_index_error(indices, size):
    """The error TensorFlow's gather raises for the first index of `indices` (an int array)
    outside [0, size), or None when all are in range."""
    bad = (indices < 0) | (indices >= size)
    if not bad.any():
        return None
    first = int(np.argmax(bad.reshape(-1)))
    # TF's SliceDebugString: no brackets for a scalar, the position in the indices else
    where = ",".join(map(str, np.unravel_index(first, indices.shape)))
    return IndexNotInRangeError(f"indices{f'[{where}]' if indices.ndim else ''} = "
                                f"{indices.reshape(-1)[first]} is not in [0, {size})")


def _gather_kernel(params, indices, axis):
    infer.require_kind(indices.dtype, infer.INTEGER, "indices")
    axis = infer.normalize_axis(axis, params.ndim)
    size = params.shape[axis]
    if indices.ndim == 0:
        if not 0 <= indices < size:
            raise gather_index_error(indices, size)
    elif indices.size and (indices.min() < 0 or indices.max() >= size):
        raise gather_index_error(indices, size)
    return np.take(params, indices, axis=axis)


def _gather_infer(params, indices, axis):
    infer.require_kind(indices.dtype.np_dtype, infer.INTEGER, "indices")
    if params.shape.dims is None or indices.shape.dims is None:
        return TensorShape(None), params.dtype
    dims = params.shape.dims
    axis = infer.normalize_axis(axis, len(dims))
    return TensorShape(dims[:axis] + indices.shape.dims + dims[axis + 1:]), params.dtype


register(OpDef("GatherV2", _gather_kernel, _gather_infer))


def gather(params, indices, axis=0, name=None):
    """Slices of `params` along `axis` at `indices` (an int tensor of any shape, each in
    [0, params.shape[axis]); `axis` may be negative)."""
    return apply("GatherV2", [convert_to_tensor(params), convert_to_tensor(indices)],
                 {"axis": int(axis)}, op_name=name)


# --- shape, size, rank, cast ----------------------------------------------------------


def _shape_infer(x, dtype):
    return TensorShape([x.shape.rank]), dtype


register(OpDef("Shape", lambda x, dtype: np.array(x.shape, dtype.np_dtype), _shape_infer))
register(OpDef("Size", lambda x, dtype: np.array(x.size, dtype.np_dtype),
               lambda x, dtype: (TensorShape([]), dtype)))
register(OpDef("Rank", lambda x: np.array(x.ndim, np.int32),
               lambda x: (TensorShape([]), dtypes.int32)))


def shape(input, out_type=dtypes.int32, name=None):
    """The dynamic shape of `input` as a 1-D int tensor (known when the graph runs)."""
    return apply("Shape", [convert_to_tensor(input)], {"dtype": dtypes.as_dtype(out_type)},
                 op_name=name)


def size(input, out_type=dtypes.int32, name=None):
    """The number of elements of `input`, as a scalar int tensor."""
    return apply("Size", [convert_to_tensor(input)], {"dtype": dtypes.as_dtype(out_type)},
                 op_name=name)


def rank(input, name=None):
    """The number of dimensions of `input`, as a scalar int32 tensor."""
    return apply("Rank", [convert_to_tensor(input)], op_name=name)


def _cast_kernel(x, dtype):
    if dtype is dtypes.string or x.dtype == object:
        raise TypeError(f"cannot cast {dtypes.as_dtype(x.dtype).name} to {dtype.name}")
    with np.errstate(invalid="ignore", over="ignore"):  # nan/inf → int is undefined, as in TF
        return x.astype(dtype.np_dtype)


def _cast_infer(x, dtype):
    if dtype is dtypes.string or x.dtype is dtypes.string:
        raise TypeError(f"cannot cast {x.dtype.name} to {dtype.name}")
    return x.shape, dtype


register(OpDef("Cast", _cast_kernel, _cast_infer, elementwise=True))


def cast(x, dtype, name=None):
    """`x` converted to `dtype` (floats → ints truncate toward zero; nonzero → True)."""
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x
    return apply("Cast", [x], {"dtype": dtype}, op_name=name)


# --- where ----------------------------------------------------------------------------


def _select_kernel(condition, x, y):
    infer.require_kind(condition.dtype, infer.BOOL, "condition")
    return np.where(condition, x, y)


def _select_infer(condition, x, y):
    infer.require_kind(condition.dtype.np_dtype, infer.BOOL, "condition")
    return infer.broadcast_all(condition.shape, x.shape, y.shape), infer.same_dtype(x, y)


def _where_infer(condition):
    return TensorShape([None, condition.shape.rank]), dtypes.int64


register(OpDef("SelectV2", _select_kernel, _select_infer, elementwise=True))
register(OpDef("Where", lambda c: np.argwhere(c).astype(np.int64), _where_infer))


def where(condition, x=None, y=None, name=None):
    """With x and y: elementwise `x if condition else y` (all three broadcast). Alone:
    the int64 coordinates of the true (nonzero) elements, shape (count, rank)."""
    condition = convert_to_tensor(condition)
    if x is None and y is None:
        return apply("Where", [condition], op_name=name)
    if x is None or y is None:
        raise ValueError("where: pass both x and y, or neither")
    x, y = binary_operands(x, y, "where")
    return apply("SelectV2", [condition, x, y], op_name=name)
