"""ONNX rows of constants, Variables, casts, shapes, gathers, reshaping and matrix products.

- `ReadVariable` reads the Variable's initializer: the model holds the value the
  Variable had when exported (a model has no state).
- Shapes given as attrs (a static tuple) become int64 constants; shapes computed at run
  time (one extra input) are cast to int64, as ONNX wants.
- `Reshape` uses `allowzero=1`: a 0 in our shape means a dimension of size 0, never
  ONNX's default "copy the input's dimension".
- `GatherV2` does not check its indices: our kernel refuses an index out of [0, size),
  the model reads what ONNX's `Gather` reads (docs/limitations.md).
"""

import numpy as np
from autograph_py.runtime.onnx.table import export_error, register_conversion


def _int64_shape(g, static, shape_input):
    if static is not None:
        return g.int64s(static)
    return g.cast(shape_input[0], np.int64)


@register_conversion("Const")
def const(g, op):
    return g.const(op.attrs["value"], op.attrs["dtype"].np_dtype)


@register_conversion("Identity", "StopGradient")
def identity(g, op, x):
    return g.node("Identity", [x], name=op.name)


@register_conversion("ReadVariable")
def read_variable(g, op):
    return g.model.variable(op.attrs["var"])


@register_conversion("ZerosLike", "OnesLike")
def zeros_or_ones_like(g, op, x):
    dtype = np.dtype(op.outputs[0].dtype.np_dtype)
    fill = g.model.onnx.numpy_helper.from_array(
        np.full([1], op.type == "OnesLike", dtype), g.fresh("fill"))
    return g.node("ConstantOfShape", [g.node("Shape", [x])], value=fill, name=op.name)


@register_conversion("Cast")
def cast(g, op, x):
    return g.cast(x, op.attrs["dtype"].np_dtype)


@register_conversion("Shape", "Size")
def shape_or_size(g, op, x):
    value = g.node(op.type, [x], name=op.name)  # int64
    dtype = np.dtype(op.attrs["dtype"].np_dtype)
    return value if dtype == np.int64 else g.cast(value, dtype)


@register_conversion("Rank")
def rank(g, op, x):
    return g.cast(g.node("Size", [g.node("Shape", [x])]), np.int32)


@register_conversion("GatherV2")
def gather(g, op, params, indices):
    return g.node("Gather", [params, indices], axis=int(op.attrs["axis"]), name=op.name)


@register_conversion("Range")
def range_(g, op, start, limit, delta):
    return g.node("Range", [start, limit, delta], name=op.name)


@register_conversion("Fill")
def fill(g, op, value, *shape_input):
    return g.node("Expand", [value, _int64_shape(g, op.attrs["shape"], shape_input)],
                  name=op.name)


@register_conversion("Reshape")
def reshape(g, op, x, *shape_input):
    return g.node("Reshape", [x, _int64_shape(g, op.attrs["shape"], shape_input)],
                  allowzero=1, name=op.name)


@register_conversion("Transpose")
def transpose(g, op, x):
    perm = op.attrs.get("perm")
    if perm is None:
        return g.node("Transpose", [x], name=op.name)
    return g.node("Transpose", [x], perm=[int(p) for p in perm], name=op.name)


@register_conversion("ExpandDims")
def expand_dims(g, op, x):
    return g.node("Unsqueeze", [x, g.int64s(op.attrs["axis"])], name=op.name)


@register_conversion("Squeeze")
def squeeze(g, op, x):
    axis = op.attrs.get("axis")
    if axis is None or (not isinstance(axis, (int, np.integer)) and not len(axis)):
        return g.node("Squeeze", [x], name=op.name)
    return g.node("Squeeze", [x, g.int64s(axis)], name=op.name)


@register_conversion("ConcatV2")
def concat(g, op, *values):
    return g.node("Concat", values, axis=int(op.attrs["axis"]), name=op.name)


@register_conversion("Pack")
def pack(g, op, *values):
    rank = op.outputs[0].shape.rank
    axis = int(op.attrs["axis"])
    if axis < 0:
        if rank is None:
            raise export_error(op, "stacking on a negative axis needs a known rank")
        axis += rank
    rows = [g.node("Unsqueeze", [v, g.int64s(axis)]) for v in values]
    return g.node("Concat", rows, axis=axis, name=op.name)


@register_conversion("SelectV2")
def select(g, op, condition, x, y):
    return g.node("Where", [condition, x, y], name=op.name)


@register_conversion("MatMul")
def matmul(g, op, a, b):
    return g.node("MatMul", [a, b], name=op.name)
