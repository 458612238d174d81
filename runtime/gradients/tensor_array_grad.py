"""Gradient rules of the TensorArray ops (runtime/ops/tensor_array_ops.py).

Contract: a scatter's values get the buffer gradient at their indices; the buffer it
wrote into gets the rest (`TensorArrayBufferGrad`: the rows the scatter overwrote get
zero, and a buffer that had no rows yet gets zeros of its own shape). A stack passes its
gradient to the buffer the same way with no row zeroed. Reads are `gather`s of the
buffer, so they use gather's rule; the written mask and the indices carry no gradient.
"""

from autograph_py.runtime import dtypes
from autograph_py.runtime.ops.array_ops import gather
from autograph_py.runtime.ops.core import constant
from autograph_py.runtime.registry import apply, register_gradient


def _buffer_grad(grad, buffer, indices):
    return apply("TensorArrayBufferGrad", [grad, buffer, indices])


@register_gradient("TensorArrayScatter")
def _scatter(op, grad, _written_grad):
    buffer, _, indices, _ = op.inputs
    return _buffer_grad(grad, buffer, indices), None, None, gather(grad, indices)


@register_gradient("TensorArrayStack")
def _stack(op, grad):
    buffer = op.inputs[0]
    return _buffer_grad(grad, buffer, constant([], dtypes.int32)), None
