"""Gradient rules of runtime/ops/unary_math_ops.py.

Contract: as TensorFlow: sign's gradient is zeros (it is flat wherever it is
differentiable); log1p's is grad / (1 + x). floor, ceil and round have no rule (TF gives
them no gradient), nor do the is_* tests (bool results).
"""

from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.registry import register_gradient


@register_gradient("Sign")
def _sign(op, grad):
    return (zeros_like(op.inputs[0]),)


@register_gradient("Log1p")
def _log1p(op, grad):
    return (m.divide(grad, m.add(op.inputs[0], 1)),)
