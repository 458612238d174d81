"""ONNX rows of tiling, padding, unstacking, one-hot, the one-argument `where`, softmax.

- `Tile`'s multiples (an attr, or an input computed at run time) become int64 repeats.
- `Unpack` is a `Split` into equal parts along the axis, each squeezed.
- `OneHot`: ONNX counts a negative index from the end (-1 is the last class); numpy's
  comparison, ours, makes it a row of off values, so negative indices are first moved
  out of range (to `depth`), where both give off values.
- `Where` with one argument is numpy's `argwhere`: `NonZero` transposed (row-major order
  in both).
- `PadV2`: our paddings are [before, after] per axis, ONNX's all befores then all
  afters; CONSTANT and REFLECT are ONNX's `constant` and `reflect`, SYMMETRIC (the
  edge repeated) has no ONNX mode and is refused.
- `Softmax`/`LogSoftmax` along one axis are ONNX's (opset 13 on: one axis, not a
  flattened 2-D view).
"""

import numpy as np
from autograph_py.runtime.onnx.table import export_error, register_conversion


@register_conversion("Tile")
def tile(g, op, x, *multiples_input):
    static = op.attrs["multiples"]
    repeats = g.int64s(static) if static is not None else g.cast(multiples_input[0], np.int64)
    return g.node("Tile", [x, repeats], name=op.name)


@register_conversion("Unpack")
def unpack(g, op, x):
    num, axis = int(op.attrs["num"]), int(op.attrs["axis"])
    if num == 0:
        return ()
    axes = g.int64s(axis)
    if num == 1:
        return (g.node("Squeeze", [x, axes], name=op.name),)
    parts = g.node("Split", [x], num, axis=axis, num_outputs=num)
    return tuple(g.node("Squeeze", [p, axes]) for p in parts)


@register_conversion("OneHot")
def one_hot(g, op, indices, on_value, off_value, *depth_input):
    static = op.attrs["depth"]
    if static is not None:
        depth = g.const(int(static), np.int64)
    else:
        depth = g.cast(depth_input[0], np.int64)
    wide = g.cast(indices, np.int64)
    zero = g.const(0, np.int64)
    moved = g.node("Where", [g.node("Less", [wide, zero]), depth, wide])
    values = g.node("Concat", [g.node("Unsqueeze", [off_value, g.int64s(0)]),
                               g.node("Unsqueeze", [on_value, g.int64s(0)])], axis=0)
    axis = int(op.attrs["axis"])
    rank = op.inputs[0].shape.rank
    if axis < -1:
        if rank is None:
            raise export_error(op, "a negative axis other than -1 needs a known rank")
        axis += rank + 1
    return g.node("OneHot", [moved, depth, values], axis=axis, name=op.name)


@register_conversion("Where")
def argwhere(g, op, condition):
    return g.node("Transpose", [g.node("NonZero", [condition])], perm=[1, 0], name=op.name)


@register_conversion("Softmax", "LogSoftmax")
def softmax(g, op, x):
    return g.node(op.type, [x], axis=int(op.attrs["axis"]), name=op.name)


@register_conversion("PadV2")
def pad(g, op, x, constant_value, *paddings_input):
    mode = op.attrs["mode"]
    if mode not in ("CONSTANT", "REFLECT"):
        raise export_error(op, f"ONNX's Pad has no {mode} mode (the edge repeated)")
    static = op.attrs["paddings"]
    if static is not None:
        pads = g.int64s(np.asarray(static, np.int64).T.reshape(-1))
    else:
        befores_then_afters = g.node("Transpose", [g.cast(paddings_input[0], np.int64)],
                                     perm=[1, 0])
        pads = g.node("Reshape", [befores_then_afters, g.int64s([-1])])
    inputs = [x, pads, constant_value] if mode == "CONSTANT" else [x, pads]
    return g.node("Pad", inputs, mode=mode.lower(), name=op.name)
