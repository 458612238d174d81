"""Gradient rules of shape and selection ops (runtime/ops/array_ops.py, indexing.py,
creation_ops.py), and `StridedSliceGrad`, the op that scatters a slice's gradient back.

Contract: reshaping ops reshape the gradient back to the input's shape (known at run time,
so unknown dims are fine); concat slices it, stack unstacks it; indexing (`x[...]`) and
gather scatter it into zeros of the input's shape, adding where an index repeats; cast
passes it through between floating dtypes only; where sends it to the chosen branch.
"""

import numpy as np
from autograph_py.runtime.gradients.grad_ops import unbroadcast
from autograph_py.runtime.gradients.math_grad import masked
from autograph_py.runtime.ops import array_ops as a
from autograph_py.runtime.ops.indexing import build_index, strided_slice
from autograph_py.runtime.ops.math_ops import add, logical_not
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient

# --- scattering a slice's gradient ----------------------------------------------------------


def _slice_grad_kernel(grad, like, *dynamic, spec):
    out = np.zeros(like.shape, grad.dtype)
    index = build_index(spec, dynamic)
    if any(item[0] == "array" for item in spec):
        np.add.at(out, index, grad)  # an index may repeat: its gradients add up
    else:
        out[index] = grad
    return out


register(OpDef("StridedSliceGrad", _slice_grad_kernel,
               lambda grad, like, *dynamic, spec: (like.shape, grad.dtype)))


def scatter_like(grad, like, dynamic, spec):
    """Zeros shaped like `like`, with `grad` added at `like[build_index(spec, dynamic)]`."""
    return apply("StridedSliceGrad", [grad, like, *dynamic], {"spec": spec})


@register_gradient("StridedSliceGrad")
def _slice_grad_grad(op, grad):
    dynamic = op.inputs[2:]
    sliced = apply("StridedSlice", [grad, *dynamic], {"spec": op.attrs["spec"]})
    return (sliced, None) + (None,) * len(dynamic)


@register_gradient("Identity")
def _identity(op, grad):
    return (grad,)


@register_gradient("RequireBound")  # runtime/ops/bound_check.py: the value passes
def _require_bound(op, grad):
    return grad, None


@register_gradient("StridedSlice")
def _strided_slice(op, grad):
    x, *dynamic = op.inputs
    return (scatter_like(grad, x, dynamic, op.attrs["spec"]),) + (None,) * len(dynamic)


def _at_axis(axis, item, full, ellipsis):
    """An index selecting `item` along `axis` and everything along the other axes (a
    negative axis counts from the end, so the rank need not be known)."""
    if axis >= 0:
        return (full,) * axis + (item,)
    return (ellipsis, item) + (full,) * (-axis - 1)


@register_gradient("GatherV2")
def _gather(op, grad):
    params, indices = op.inputs
    spec = _at_axis(op.attrs["axis"], ("array", 0), ("slice", None, None, None), ("ellipsis",))
    return scatter_like(grad, params, [indices], spec), None


# --- reshaping ------------------------------------------------------------------------------


def reshape_like(grad, x):
    shape = x.shape
    return a.reshape(grad, shape.dims if shape.is_fully_defined() else a.shape(x))


def _reshaping_rule(op, grad):
    return (reshape_like(grad, op.inputs[0]),) + (None,) * (len(op.inputs) - 1)


for _name in ("Reshape", "ExpandDims", "Squeeze"):
    register_gradient(_name)(_reshaping_rule)


@register_gradient("Transpose")
def _transpose(op, grad):
    perm = op.attrs["perm"]
    if perm is None:
        return (a.transpose(grad),)
    rank = len(perm)
    return (a.transpose(grad, np.argsort([p % rank for p in perm]).tolist()),)


# --- joining and splitting ------------------------------------------------------------------


def _size_along(x, axis):
    """x's size along `axis`: a Python int when known while building, else a tensor."""
    if x.shape.rank is not None and x.shape.dims[axis] is not None:
        return x.shape.dims[axis]
    return a.shape(x)[axis]


@register_gradient("ConcatV2")
def _concat(op, grad):
    axis = op.attrs["axis"]
    grads, start = [], 0
    for x in op.inputs:
        size = _size_along(x, axis)
        stop = start + size if isinstance(start, int) and isinstance(size, int) else \
            add(start, size)
        grads.append(strided_slice(grad, _at_axis(axis, slice(start, stop), slice(None), ...)))
        start = stop
    return tuple(grads)


@register_gradient("Pack")
def _stack(op, grad):
    return tuple(a.unstack(grad, num=len(op.inputs), axis=op.attrs["axis"]))


@register_gradient("Unpack")
def _unstack(op, *grads):
    return (a.stack(grads, axis=op.attrs["axis"]),)


# --- dtype and selection --------------------------------------------------------------------


@register_gradient("Cast")
def _cast(op, grad):
    x = op.inputs[0]
    if x.dtype.is_floating and grad.dtype.is_floating:
        return (a.cast(grad, x.dtype),)
    return (None,)


@register_gradient("SelectV2")
def _select(op, grad):
    condition, x, y = op.inputs
    return (None, unbroadcast(masked(grad, condition), x),
            unbroadcast(masked(grad, logical_not(condition)), y))


@register_gradient("Fill")
def _fill(op, grad):
    return (reduce_sum(grad),) + (None,) * (len(op.inputs) - 1)
