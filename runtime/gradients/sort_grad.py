"""Gradient rules of sort and top_k (runtime/ops/sort_ops.py), and the two ops that move
values along an axis by index: `TakeAlongAxis` and `PutAlongAxis`.

Contract: sort and top_k pick input entries by index along an axis, so their gradient
puts each output gradient back at the index it came from: `PutAlongAxis(grad, indices,
like, axis)` is zeros shaped like `like` with `grad` added at `indices` along `axis`.
Sort's indices are the input's (stable) argsort, so equal values each get the gradient of
one output. `TakeAlongAxis(x, indices, axis)` is numpy's take_along_axis; each of the
two is the other's gradient, so second derivatives work. argsort and top_k's indices
are integers: not differentiable.
"""

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.sort_ops import argsort
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _take_along_axis_kernel(x, indices, axis):
    return np.take_along_axis(x, indices, infer.normalize_axis(axis, x.ndim))


def _put_along_axis_kernel(grad, indices, like, axis):
    axis = infer.normalize_axis(axis, like.ndim)
    out = np.zeros(like.shape, grad.dtype)
    # np.add.at with full index grids: indices may repeat (top_k of k > 1 never does,
    # but the op is general), and repeated gradients must add up.
    grid = list(np.indices(indices.shape, sparse=True))
    grid[axis] = indices
    np.add.at(out, tuple(grid), grad)
    return out


register(OpDef("TakeAlongAxis", _take_along_axis_kernel,
               lambda x, indices, axis: (indices.shape, x.dtype)))
register(OpDef("PutAlongAxis", _put_along_axis_kernel,
               lambda grad, indices, like, axis: (like.shape, grad.dtype)))


def put_along_axis(grad, indices, like, axis):
    return apply("PutAlongAxis", [grad, indices, like], {"axis": axis})


@register_gradient("TakeAlongAxis")
def _take_along_axis(op, grad):
    x, indices = op.inputs
    return put_along_axis(grad, indices, x, op.attrs["axis"]), None


@register_gradient("PutAlongAxis")
def _put_along_axis(op, grad):
    _, indices, _ = op.inputs
    return apply("TakeAlongAxis", [grad, indices], {"axis": op.attrs["axis"]}), None, None


@register_gradient("Sort")
def _sort(op, grad):
    x = op.inputs[0]
    indices = argsort(x, op.attrs["axis"], op.attrs["direction"])
    return (put_along_axis(grad, indices, x, op.attrs["axis"]),)


@register_gradient("TopKV2")
def _top_k(op, grad, _indices_grad):
    x = op.inputs[0]
    return (put_along_axis(grad, op.outputs[1], x, -1),) + (None,) * (len(op.inputs) - 1)
