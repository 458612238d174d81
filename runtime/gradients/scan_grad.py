"""Gradient rules of cumsum and cumprod (runtime/ops/scan_ops.py).

Contract: output j of a cumulative sum includes input i exactly when i comes before j
(or equals it, unless exclusive) in the scan's direction, so the gradient is the same
scan run in the other direction. cumprod's is TensorFlow's rule:
cumsum(grad * y, reverse flipped) / x, which is nan/inf where x is 0 (docs/limitations.md;
reduce_prod's rule needs no division and is exact there).
"""

from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.scan_ops import cumsum
from autograph_py.runtime.registry import register_gradient


def _reversed_cumsum(t, attrs):
    return cumsum(t, attrs["axis"], attrs["exclusive"], not attrs["reverse"])


@register_gradient("Cumsum")
def _cumsum(op, grad):
    return (_reversed_cumsum(grad, op.attrs),)


@register_gradient("Cumprod")
def _cumprod(op, grad):
    return (m.divide(_reversed_cumsum(m.multiply(grad, op.outputs[0]), op.attrs),
                     op.inputs[0]),)
