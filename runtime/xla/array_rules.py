"""Lowerings of the array ops: constants, shapes, reshaping, joining, indexing, padding.

Contract: a shape-like input (reshape's shape, pad's paddings, tile's multiples, one_hot's
depth, a slice bound) must be known when compiling (an attr, a constant, or computed from
static shapes, which `lowering` folds): else a LoweringError names the op. Ops whose
result shape depends on values (`Where`, `BooleanMask`) compile only when their inputs
are known. Adjoint ops (`PadGrad`, `TileGrad`, `StridedSliceGrad`, `PutAlongAxis`,
`SumToShapeOf`, `BooleanMaskGrad`) are the vector-Jacobian products of their forward
rows. Integer indices out of range are checks (IndexError on return), as numpy raises;
gather's indices must be in [0, size) (IndexNotInRangeError on return, with the numpy
kernel's message naming the first bad index: XLA itself would clamp them).
"""

import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.errors import IndexNotInRangeError
from autograph_py.runtime.ops.array_ops import gather_index_error
from autograph_py.runtime.ops.indexing import build_index
from autograph_py.runtime.ops.infer import normalize_axis
from autograph_py.runtime.ops.manipulation_ops import PAD_MODES, mask_index, masked_axes
from autograph_py.runtime.xla.lowering import is_known, static
from autograph_py.runtime.xla.math_rules import out_dtype, vjp_of
from autograph_py.runtime.xla.table import register_lowering
from jax import lax


def int_arg(op, attr, inputs, what):
    """An integer argument kept as an attr when known, else its (static) input."""
    value = op.attrs[attr]
    if value is not None:
        return np.asarray(value, np.int64)
    return np.asarray(static(op, inputs[0], what), np.int64)


@register_lowering("Const")
def _const(ctx, op):
    return np.asarray(op.attrs["value"])


@register_lowering("Shape", "Size", "Rank")
def _shape(ctx, op, x):  # static in XLA: known while tracing
    value = {"Shape": np.shape(x), "Size": np.size(x), "Rank": np.ndim(x)}[op.type]
    return np.asarray(value, out_dtype(op))


@register_lowering("Cast")
def _cast(ctx, op, x):
    return jnp.asarray(x).astype(op.attrs["dtype"].np_dtype)


@register_lowering("Reshape")
def _reshape(ctx, op, x, *shape_input):
    shape = op.attrs["shape"]
    target = shape if shape is not None else static(op, shape_input[0], "the target shape")
    return jnp.reshape(x, tuple(int(d) for d in target))


@register_lowering("Transpose")
def _transpose(ctx, op, x):
    return jnp.transpose(x, op.attrs["perm"])


@register_lowering("ExpandDims")
def _expand_dims(ctx, op, x):
    return jnp.expand_dims(x, normalize_axis(op.attrs["axis"], x.ndim, extra=1))


@register_lowering("Squeeze")
def _squeeze(ctx, op, x):
    axis = op.attrs["axis"]
    axes = tuple(i for i, d in enumerate(x.shape) if d == 1) if axis is None else \
        tuple(normalize_axis(a, x.ndim) for a in (axis if isinstance(axis, tuple) else (axis,)))
    return jnp.squeeze(x, axes)


@register_lowering("ConcatV2")
def _concat(ctx, op, *values):
    return jnp.concatenate(values, axis=normalize_axis(op.attrs["axis"], np.ndim(values[0])))


@register_lowering("Pack")
def _pack(ctx, op, *values):
    return jnp.stack(values, axis=normalize_axis(op.attrs["axis"], np.ndim(values[0]), extra=1))


@register_lowering("Unpack")
def _unpack(ctx, op, x):
    return tuple(jnp.moveaxis(x, normalize_axis(op.attrs["axis"], x.ndim), 0))


def _check_indices(ctx, op, indices, size):
    known = ctx.value_range(indices)
    if known is not None and -size <= known[0] and known[1] < size:
        return  # proven in range (a loop counter over the axis)
    ctx.check(op, (indices >= -size) & (indices < size), IndexError,
              f"index out of range for an axis of size {size}")


def _check_gather_indices(ctx, op, indices, size):
    known = ctx.value_range(indices)
    if known is not None and 0 <= known[0] and known[1] < size:
        return  # proven in range (a loop counter over the axis)
    ctx.check_reported(op, (indices >= 0) & (indices < size), IndexNotInRangeError,
                       f"an index is not in [0, {size})",
                       lambda values: str(gather_index_error(np.asarray(values), size)),
                       indices)


@register_lowering("GatherV2")
def _gather(ctx, op, params, indices):
    axis = normalize_axis(op.attrs["axis"], params.ndim)
    size = params.shape[axis]
    _check_gather_indices(ctx, op, indices, size)
    if size == 0:
        return _never_read(lambda p: jnp.take(p, indices, axis=axis), params, {axis})
    # Checked in [0, size) above: a failed check raises on return, whatever is read.
    if np.ndim(indices) == 0:  # a loop's element read: one dynamic slice
        result = lax.dynamic_index_in_dim(params, indices, axis, keepdims=False)
    else:
        result = jnp.take(params, indices, axis=axis, mode="clip")
    if is_known(params) and params.dtype.kind in "iu" and params.size:
        # Read from a table known while tracing (a range iterated over): the result's
        # range proves the checks of the indices it becomes.
        ctx.set_range(result, params.min(), params.max())
    return result


def _never_read(index, x, empty_axes):
    """Zeros of the shape `index(x)` would have. For a traced index into an empty axis,
    which JAX refuses to trace: its check fails whenever the op runs, so the value is
    never used (the op sits in a loop or branch that does not run on this input)."""
    padded = jnp.zeros([1 if i in empty_axes else d for i, d in enumerate(np.shape(x))],
                       jnp.result_type(x))
    return jnp.zeros_like(index(padded))


@register_lowering("SelectV2")
def _select(ctx, op, condition, x, y):
    return jnp.where(condition, x, y)


@register_lowering("Where")
def _where(ctx, op, condition):
    static(op, condition, "the condition of where (its result's length depends on it)")


@register_lowering("BooleanMask", "BooleanMaskGrad")
def _boolean_mask(ctx, op, *inputs):
    mask = static(op, inputs[1 + (op.type == "BooleanMaskGrad")],
                  "the mask (the result's length depends on it)")
    if op.type == "BooleanMask":
        x = inputs[0]
        return x[mask_index(masked_axes(x.shape, mask.shape, op.attrs["axis"]), mask)]
    grad, like = inputs[:2]
    index = mask_index(masked_axes(like.shape, mask.shape, op.attrs["axis"]), mask)
    return jnp.zeros(like.shape, grad.dtype).at[index].set(grad)


# --- indexing ----------------------------------------------------------------------------------


def _index(ctx, op, x, dynamic):
    """(the JAX index for the op's spec, the empty axes a traced index reads): scalar and
    array tensors may be traced, slice bounds must be known; traced indices are checked
    against the axis size."""
    spec = op.attrs["spec"]
    known = [d if is_known(d) else np.zeros(np.shape(d), np.int64) for d in dynamic]
    for item in spec:
        if item[0] == "slice":
            for bound in item[1:]:
                if isinstance(bound, tuple):
                    static(op, dynamic[bound[1]], "a slice bound")
    index = list(build_index(spec, known))  # static items; traced ones replaced below
    empty = set()  # axes of size 0 that a traced index reads
    axis = 0
    rank = x.ndim
    consumed = sum(item[0] in ("int", "dyn", "slice", "array") for item in spec)
    for position, item in enumerate(spec):
        if item[0] == "ellipsis":
            axis += rank - consumed
            continue
        if item[0] in ("dyn", "array") and not is_known(dynamic[item[1]]):
            value = dynamic[item[1]]
            _check_indices(ctx, op, value, x.shape[axis])
            index[position] = value
            if x.shape[axis] == 0:
                empty.add(axis)
        axis += item[0] != "newaxis"
    return tuple(index), empty


@register_lowering("StridedSlice")
def _strided_slice(ctx, op, x, *dynamic):
    index, empty = _index(ctx, op, x, dynamic)
    if empty:
        return _never_read(lambda p: p[index], x, empty)
    return jnp.asarray(x)[index]


@register_lowering("StridedSliceGrad")
def _strided_slice_grad(ctx, op, grad, like, *dynamic):
    index, empty = _index(ctx, op, like, dynamic)
    if empty:
        return jnp.zeros(np.shape(like), grad.dtype)
    return jnp.zeros(np.shape(like), grad.dtype).at[index].add(grad)


# --- creation ------------------------------------------------------------------------------------


@register_lowering("Fill")
def _fill(ctx, op, value, *shape_input):
    shape = op.attrs["shape"]
    shape = shape if shape is not None else static(op, shape_input[0], "the shape of fill")
    return jnp.full(tuple(int(d) for d in shape), value, dtype=value.dtype)


@register_lowering("ZerosLike", "OnesLike")
def _like(ctx, op, x):
    return (jnp.zeros if op.type == "ZerosLike" else jnp.ones)(x.shape, out_dtype(op))


@register_lowering("Range")
def _range(ctx, op, start, limit, delta):
    for value, what in ((start, "start"), (limit, "limit"), (delta, "delta")):
        static(op, value, f"range's {what} (the result's length depends on it)")


@register_lowering("OneHot")
def _one_hot(ctx, op, indices, on_value, off_value, *depth_input):
    size = int(int_arg(op, "depth", depth_input, "one_hot's depth"))
    hot = jnp.expand_dims(indices, -1) == jnp.arange(size)
    out = jnp.where(hot, on_value, off_value)
    return jnp.moveaxis(out, -1, normalize_axis(op.attrs["axis"], indices.ndim, extra=1))


# --- padding, tiling and their adjoints ---------------------------------------------------------


def _pad_fn(op, pads, constant_values):
    mode = op.attrs["mode"]
    widths = [tuple(int(p) for p in row) for row in pads]
    if mode == "CONSTANT":
        return lambda x: jnp.pad(x, widths, constant_values=constant_values)
    return lambda x: jnp.pad(x, widths, mode=PAD_MODES[mode])


@register_lowering("PadV2")
def _pad(ctx, op, x, constant_values, *paddings_input):
    pads = int_arg(op, "paddings", paddings_input, "the paddings")
    return _pad_fn(op, pads, constant_values)(x)


@register_lowering("PadGrad")
def _pad_grad(ctx, op, grad, like, *paddings_input):
    pads = int_arg(op, "paddings", paddings_input, "the paddings")
    return vjp_of(_pad_fn(op, pads, 0), jnp.zeros(like.shape, grad.dtype), grad)


def _tile_fn(op, inputs):
    reps = tuple(int(r) for r in int_arg(op, "multiples", inputs, "the multiples"))
    return lambda x: jnp.tile(x, reps)


@register_lowering("Tile")
def _tile(ctx, op, x, *multiples_input):
    return _tile_fn(op, multiples_input)(x)


@register_lowering("TileGrad")
def _tile_grad(ctx, op, grad, like, *multiples_input):
    return vjp_of(_tile_fn(op, multiples_input), jnp.zeros(like.shape, grad.dtype), grad)


@register_lowering("TakeAlongAxis")
def _take_along_axis(ctx, op, x, indices):
    return jnp.take_along_axis(x, indices, normalize_axis(op.attrs["axis"], x.ndim))


@register_lowering("PutAlongAxis")
def _put_along_axis(ctx, op, grad, indices, like):
    axis = normalize_axis(op.attrs["axis"], like.ndim)
    return vjp_of(lambda x: jnp.take_along_axis(x, indices, axis),
                  jnp.zeros(like.shape, grad.dtype), grad)


@register_lowering("SumToShapeOf")
def _sum_to_shape(ctx, op, x, like):
    shape = np.shape(like)
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    return jnp.sum(x, axis=axes).reshape(shape)


@register_lowering("BroadcastToShapeOf")
def _broadcast_to_shape(ctx, op, x, like):
    return jnp.broadcast_to(x, np.shape(like))
