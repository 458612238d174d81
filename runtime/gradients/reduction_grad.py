"""Gradient rules of the reductions (runtime/ops/reduction_ops.py).

Contract: the gradient of a reduction is the output gradient put back at the reduced axes
(as size-1 dims) and broadcast to the input's shape, then: sum → as is; mean → divided by
the number of elements averaged; max/min → shared equally among the elements equal to
the extreme; prod → times the product of the other elements each one is multiplied with
(two-sided exclusive cumulative products, TensorFlow's rule: no division, so exact
where x has zeros).
reduce_any / reduce_all / argmax / argmin are not differentiable.
"""

from autograph_py.runtime.gradients.grad_ops import broadcast_like
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import cast, expand_dims, reshape, size
from autograph_py.runtime.ops.infer import normalize_axes
from autograph_py.runtime.ops.reduction_ops import reduce_prod, reduce_sum
from autograph_py.runtime.ops.scan_ops import cumprod
from autograph_py.runtime.registry import register_gradient


def _keep_dims(t, op):
    """`t` (shaped like the reduction's output) with the reduced axes back as size 1."""
    if op.attrs["keepdims"]:
        return t
    x = op.inputs[0]
    if x.shape.rank is None:
        raise ValueError(f"the gradient of {op.type} needs an input of known rank")
    axes = normalize_axes(op.attrs["axis"], x.shape.rank)
    if t.shape.is_fully_defined():
        dims = [1 if i in axes else d for i, d in enumerate(x.shape.dims)]
        if None not in dims:
            return reshape(t, dims)
    for axis in axes:  # ascending, so each axis is where it belongs in the result
        t = expand_dims(t, axis)
    return t


def _spread(t, op):
    """`t` broadcast back over the reduced axes, to the input's shape."""
    return broadcast_like(_keep_dims(t, op), op.inputs[0])


@register_gradient("Sum")
def _sum(op, grad):
    return (_spread(grad, op),)


def _count(op):
    """How many elements each output averages: a Python number when known statically."""
    x, y = op.inputs[0], op.outputs[0]
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        return x.shape.num_elements() // max(y.shape.num_elements(), 1)
    return m.divide(cast(size(x), x.dtype), cast(size(y), x.dtype))


@register_gradient("Mean")
def _mean(op, grad):
    return (m.divide(_spread(grad, op), _count(op)),)


def _extreme(op, grad):
    x = op.inputs[0]
    hits = cast(m.equal(x, _spread(op.outputs[0], op)), x.dtype)
    ties = reduce_sum(hits, axis=op.attrs["axis"], keepdims=True)
    return (m.multiply(m.divide(hits, ties), _spread(grad, op)),)


register_gradient("Max")(_extreme)
register_gradient("Min")(_extreme)


def _product_of_the_others(x, axes):
    """For each element of `x`, the product of the others its reduction over `axes`
    multiplies it with: along each axis the exclusive products from both sides, of the
    products over the axes after it."""
    total = None
    for k, axis in enumerate(axes):
        later = axes[k + 1:]
        block = reduce_prod(x, axis=later, keepdims=True) if later else x
        others = m.multiply(cumprod(block, axis, exclusive=True),
                            cumprod(block, axis, exclusive=True, reverse=True))
        total = others if total is None else m.multiply(total, others)
    return total


@register_gradient("Prod")
def _prod(op, grad):
    x = op.inputs[0]
    if x.shape.rank is None:
        raise ValueError("the gradient of Prod needs an input of known rank")
    axes = sorted(normalize_axes(op.attrs["axis"], x.shape.rank))
    if not axes:
        return (grad,)
    return (m.multiply(_spread(grad, op), _product_of_the_others(x, axes)),)
