"""Ops that gradient rules need and the op library does not offer.

Contract (`stop_gradient`, a forward op, is in `ops.core`):
- `unbroadcast(grad, like)`: `grad` summed over the axes along which `like` was broadcast,
  so it has `like`'s shape. `broadcast_like(grad, like)`: the reverse. Both are ops
  (`SumToShapeOf`, `BroadcastToShapeOf`) taking `like` as an input, so they work when
  shapes are only known at run time; when the static shapes already agree they return
  `grad` unchanged and add nothing to the graph. Each is the other's gradient, so second
  derivatives through broadcasting work.
"""

import numpy as np
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _like_infer(x, like):
    return like.shape, x.dtype


def _sum_to_shape(x, like):
    shape = like.shape
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    return np.sum(x, axis=axes).reshape(shape)


def _broadcast_to_shape(x, like):
    # Read-only view: kernels never write into their inputs, so no copy is needed.
    return x if x.shape == like.shape else np.broadcast_to(x, like.shape)


register(OpDef("SumToShapeOf", _sum_to_shape, _like_infer))
register(OpDef("BroadcastToShapeOf", _broadcast_to_shape, _like_infer))


def _same_static_shape(a, b):
    return a.shape.is_fully_defined() and a.shape == b.shape


def unbroadcast(grad, like):
    """`grad` reduced (summed) to the shape of `like`, which was broadcast to `grad`'s."""
    if grad is None or _same_static_shape(grad, like):
        return grad
    return apply("SumToShapeOf", [grad, like])


def broadcast_like(grad, like):
    """`grad` broadcast to the shape of `like`."""
    if _same_static_shape(grad, like):
        return grad
    return apply("BroadcastToShapeOf", [grad, like])


@register_gradient("SumToShapeOf")
def _sum_to_shape_grad(op, grad):
    return broadcast_like(grad, op.inputs[0]), None


@register_gradient("BroadcastToShapeOf")
def _broadcast_to_shape_grad(op, grad):
    return unbroadcast(grad, op.inputs[0]), None
