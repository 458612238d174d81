"""Gradient rule of linspace (runtime/ops/sequence_ops.py).

Contract: value i is start + w_i * (stop - start) with w_i = i / (num - 1) (w = 0 when
num is 1), so start gets sum_i grad_i * (1 - w_i) and stop sum_i grad_i * w_i, summed
along the new axis and reduced to each input's shape (they broadcast). The weights are
the op itself on zeros and ones, so `num` may be a run-time tensor.
"""

from autograph_py.runtime.gradients.grad_ops import unbroadcast
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.creation_ops import ones_like, zeros_like
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.registry import apply, register_gradient


@register_gradient("LinSpace")
def _linspace(op, grad):
    start, stop, *num = op.inputs
    span = m.subtract(stop, start)
    weights = apply("LinSpace", [zeros_like(span), ones_like(span)] + num, dict(op.attrs))
    axis = op.attrs["axis"]
    to_stop = reduce_sum(m.multiply(grad, weights), axis=axis)
    to_start = m.subtract(reduce_sum(grad, axis=axis), to_stop)
    return (unbroadcast(to_start, start), unbroadcast(to_stop, stop)) + (None,) * len(num)
