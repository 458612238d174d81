"""Ops that rearrange or select a tensor's elements: pad, tile, one_hot, boolean_mask
(TensorFlow's names and argument order).

Contract:
- `pad(tensor, paddings, mode='CONSTANT', constant_values=0)`: `paddings` is [rank, 2]
  non-negative ints (before, after) per axis, static or a tensor; mode CONSTANT,
  REFLECT (the edge is not repeated: pads must be < the dim) or SYMMETRIC (it is:
  pads <= the dim), case-insensitive as in TF.
- `tile(input, multiples)`: one non-negative multiple per axis, static or a tensor.
- `one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None)`: a
  new axis of size `depth` (last by default) with `on_value` (1) at each index and
  `off_value` (0) elsewhere; an index outside [0, depth) gives a row of `off_value`.
  dtype: `dtype`, else that of a tensor `on_value`/`off_value`, else float32.
- `boolean_mask(tensor, mask, axis=None)`: the elements (or slices) of `tensor` where
  the bool `mask` is true; `mask`'s shape must equal `tensor.shape[axis:axis + mask.rank]`
  and those axes become one axis whose size is the number of true entries (known at run
  time only).
Kernels are numpy functions of their inputs and attrs; infer rules give every dim that
is known while building.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer, int_args
from autograph_py.runtime.ops.core import convert_to_tensor, lossless_constant
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor

# --- pad ------------------------------------------------------------------------------

PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def check_paddings(pads, dims, mode):
    """Raise a ValueError unless `pads` ([rank, 2] ints) fit a tensor of shape `dims`
    (entries may be None, unknown) in `mode`."""
    if pads.shape != (len(dims), 2):
        raise ValueError(f"paddings must have shape [{len(dims)}, 2] for a tensor of rank "
                         f"{len(dims)}, got shape {list(pads.shape)}")
    if (pads < 0).any():
        raise ValueError(f"paddings must be non-negative, got {pads.tolist()}")
    limit = {"REFLECT": 0, "SYMMETRIC": 1}.get(mode)
    for axis, (dim, (before, after)) in enumerate(zip(dims, pads)):
        if limit is not None and dim is not None and max(before, after) > dim - 1 + limit:
            bound = "less than" if limit == 0 else "at most"
            raise ValueError(f"{mode} padding of axis {axis} must be {bound} its size {dim}, "
                             f"got {[int(before), int(after)]}")


def _pad_kernel(x, constant_values, *paddings_input, paddings, mode):
    pads = int_args.resolve(paddings, paddings_input)
    check_paddings(pads, x.shape, mode)
    if mode == "CONSTANT":
        return np.pad(x, pads, constant_values=constant_values)
    return np.pad(x, pads, mode=PAD_MODES[mode])


def _pad_infer(x, constant_values, *paddings_input, paddings, mode):
    if constant_values.shape.rank not in (0, None):
        raise ValueError(f"constant_values must be a scalar, got shape {constant_values.shape}")
    infer.same_dtype(x, constant_values)
    pads = int_args.known(paddings, paddings_input)
    if x.shape.dims is None:
        return TensorShape(None if pads is None else [None] * len(pads)), x.dtype
    if pads is None:
        return TensorShape([None] * x.shape.rank), x.dtype
    check_paddings(pads, x.shape.dims, mode)
    return TensorShape(None if d is None else d + int(p.sum())
                       for d, p in zip(x.shape.dims, pads)), x.dtype


register(OpDef("PadV2", _pad_kernel, _pad_infer))


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """`tensor` padded by `paddings[i] = [before, after]` along each axis i."""
    mode = str(mode).upper()
    if mode not in PAD_MODES:
        raise ValueError(f"pad: mode must be one of {', '.join(PAD_MODES)}, got {mode!r}")
    tensor = convert_to_tensor(tensor)
    fill = _scalar(constant_values, tensor.dtype, "pad")
    static, paddings_input = int_args.split(paddings, "pad", "paddings", 2)
    return apply("PadV2", [tensor, fill] + paddings_input,
                 {"paddings": static, "mode": mode}, op_name=name)


# --- tile -----------------------------------------------------------------------------


def check_multiples(multiples, rank):
    if multiples.shape != (rank,):
        raise ValueError(f"multiples must have one entry per axis ({rank}), got "
                         f"{multiples.tolist()}")
    if (multiples < 0).any():
        raise ValueError(f"multiples must be non-negative, got {multiples.tolist()}")


def _tile_kernel(x, *multiples_input, multiples):
    reps = int_args.resolve(multiples, multiples_input)
    check_multiples(reps, x.ndim)
    return np.tile(x, reps)


def _tile_infer(x, *multiples_input, multiples):
    reps = int_args.known(multiples, multiples_input)
    if x.shape.dims is None:
        return TensorShape(None if reps is None else [None] * len(reps)), x.dtype
    if reps is None:
        return TensorShape([None] * x.shape.rank), x.dtype
    check_multiples(reps, x.shape.rank)
    return TensorShape(None if d is None else d * int(m)
                       for d, m in zip(x.shape.dims, reps)), x.dtype


register(OpDef("Tile", _tile_kernel, _tile_infer))


def tile(input, multiples, name=None):
    """`input` repeated `multiples[i]` times along each axis i."""
    static, multiples_input = int_args.split(multiples, "tile", "multiples", 1)
    return apply("Tile", [convert_to_tensor(input)] + multiples_input, {"multiples": static},
                 op_name=name)


# --- one_hot --------------------------------------------------------------------------


def _one_hot_kernel(indices, on_value, off_value, *depth_input, depth, axis):
    infer.require_kind(indices.dtype, infer.INTEGER, "indices")
    size = int(int_args.resolve(depth, depth_input))
    if size < 0:
        raise ValueError(f"depth must be non-negative, got {size}")
    hot = np.expand_dims(indices, -1) == np.arange(size)
    out = np.where(hot, on_value, off_value)
    return np.moveaxis(out, -1, infer.normalize_axis(axis, indices.ndim, extra=1))


def _one_hot_infer(indices, on_value, off_value, *depth_input, depth, axis):
    infer.require_kind(indices.dtype.np_dtype, infer.INTEGER, "indices")
    dtype = infer.same_dtype(on_value, off_value)
    known = int_args.known(depth, depth_input)
    size = None if known is None else int(known)
    if indices.shape.dims is None:
        return TensorShape(None), dtype
    dims = list(indices.shape.dims)
    dims.insert(infer.normalize_axis(axis, len(dims), extra=1), size)
    return TensorShape(dims), dtype


register(OpDef("OneHot", _one_hot_kernel, _one_hot_infer))


def _scalar(value, dtype, op):
    """`value` as a tensor of `dtype`: a tensor must have it, a Python value must fit it."""
    if isinstance(value, Tensor):
        return convert_to_tensor(value, dtype)
    return lossless_constant(value, dtype, op)


def _one_hot_dtype(dtype, on_value, off_value):
    if dtype is not None:
        return dtypes.as_dtype(dtype)
    for value in (on_value, off_value):
        if isinstance(value, Tensor):
            return value.dtype
    return dtypes.float32


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A one-hot encoding of the integer `indices` along a new axis of size `depth`."""
    dtype = _one_hot_dtype(dtype, on_value, off_value)
    values = [_scalar(default if v is None else v, dtype, "one_hot")
              for v, default in ((on_value, 1), (off_value, 0))]
    static, depth_input = int_args.split(depth, "one_hot", "depth", 0)
    return apply("OneHot", [convert_to_tensor(indices), *values] + depth_input,
                 {"depth": static, "axis": -1 if axis is None else int(axis)}, op_name=name)


# --- boolean_mask ---------------------------------------------------------------------


def masked_axes(tensor_dims, mask_dims, axis):
    """`axis` normalized; raises unless the mask's (known) dims match the tensor's there."""
    if mask_dims is not None and len(mask_dims) == 0:
        raise ValueError("the mask must have at least one dimension")
    if mask_dims is None or tensor_dims is None:
        return axis
    axis = infer.normalize_axis(axis, len(tensor_dims) - len(mask_dims) + 1)
    covered = tensor_dims[axis:axis + len(mask_dims)]
    if any(a is not None and b is not None and a != b for a, b in zip(covered, mask_dims)):
        raise ValueError(f"the mask's shape {TensorShape(mask_dims)} must match the tensor's "
                         f"dims {TensorShape(covered)} at axis {axis}")
    return axis


def mask_index(axis, mask):
    """The numpy index that selects `mask` at `axis` (every element along earlier axes)."""
    return (slice(None),) * axis + (mask,)


def _boolean_mask_kernel(x, mask, axis):
    infer.require_kind(mask.dtype, infer.BOOL, "mask")
    return x[mask_index(masked_axes(x.shape, mask.shape, axis), mask)]


def _boolean_mask_infer(x, mask, axis):
    infer.require_kind(mask.dtype.np_dtype, infer.BOOL, "mask")
    axis = masked_axes(x.shape.dims, mask.shape.dims, axis)
    if x.shape.dims is None or mask.shape.dims is None:
        return TensorShape(None), x.dtype
    dims = x.shape.dims
    return TensorShape(dims[:axis] + (None,) + dims[axis + len(mask.shape.dims):]), x.dtype


register(OpDef("BooleanMask", _boolean_mask_kernel, _boolean_mask_infer))


def boolean_mask(tensor, mask, axis=None, name=None):
    """The entries of `tensor` where `mask` is true, `mask` covering axes from `axis` (0)."""
    return apply("BooleanMask", [convert_to_tensor(tensor), convert_to_tensor(mask)],
                 {"axis": 0 if axis is None else int(axis)}, op_name=name)
