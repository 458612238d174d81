"""Gradient rules of elementwise arithmetic (runtime/ops/math_ops.py) and of matmul.

Contract: binary rules reduce each input's gradient to that input's shape (inputs may
have been broadcast). Derivatives at kinks follow TensorFlow: |x|' = sign(x) (0 at 0),
max/min send the gradient to x on ties, pow's exponent gets no gradient where x <= 0.
Comparisons, logical ops and floordiv have no rule: they are not differentiable.
"""

from autograph_py.runtime.gradients.grad_ops import unbroadcast
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import cast, transpose, where
from autograph_py.runtime.ops.creation_ops import ones_like, zeros_like
from autograph_py.runtime.registry import register_gradient


def masked(grad, mask):
    """`grad` where `mask` is true, 0 elsewhere."""
    return where(mask, grad, zeros_like(grad))


def sign(x):
    return m.subtract(cast(m.greater(x, 0), x.dtype), cast(m.less(x, 0), x.dtype))


def _binary_rule(name):
    """Register the rule of binary op `name` given d/dx and d/dy of (op, grad, x, y)."""

    def decorate(partials):
        @register_gradient(name)
        def rule(op, grad):
            x, y = op.inputs
            dx, dy = partials(op, grad, x, y)
            return unbroadcast(dx, x), unbroadcast(dy, y)

        return partials

    return decorate


@_binary_rule("Add")
def _add(op, grad, x, y):
    return grad, grad


@_binary_rule("Sub")
def _sub(op, grad, x, y):
    return grad, m.negative(grad)


@_binary_rule("Mul")
def _mul(op, grad, x, y):
    return m.multiply(grad, y), m.multiply(grad, x)


@_binary_rule("RealDiv")
def _div(op, grad, x, y):
    dx = m.divide(grad, y)
    return dx, m.negative(m.multiply(dx, m.divide(x, y)))


@_binary_rule("FloorMod")
def _mod(op, grad, x, y):
    return grad, m.negative(m.multiply(grad, m.floordiv(x, y)))


@_binary_rule("Pow")
def _pow(op, grad, x, y):
    dx = m.multiply(grad, m.multiply(y, m.pow_(x, m.subtract(y, 1))))
    positive = m.greater(x, 0)
    # log(x) is nan for x <= 0; TensorFlow gives the exponent no gradient there.
    safe_x = where(positive, x, ones_like(x))
    dy = m.multiply(m.multiply(grad, op.outputs[0]), masked(m.log(safe_x), positive))
    return dx, dy


@_binary_rule("Maximum")
def _maximum(op, grad, x, y):
    to_x = m.greater_equal(x, y)
    return masked(grad, to_x), masked(grad, m.logical_not(to_x))


@_binary_rule("Minimum")
def _minimum(op, grad, x, y):
    to_x = m.less_equal(x, y)
    return masked(grad, to_x), masked(grad, m.logical_not(to_x))


def _unary_rule(name):
    """Register the rule of unary op `name` given dy/dx * grad as (op, grad, x, y)."""

    def decorate(derivative):
        @register_gradient(name)
        def rule(op, grad):
            return (derivative(op, grad, op.inputs[0], op.outputs[0]),)

        return derivative

    return decorate


@_unary_rule("Neg")
def _neg(op, grad, x, y):
    return m.negative(grad)


@_unary_rule("Abs")
def _abs(op, grad, x, y):
    return m.multiply(grad, sign(x))


@_unary_rule("Square")
def _square(op, grad, x, y):
    return m.multiply(grad, m.multiply(x, 2))


@_unary_rule("Sqrt")
def _sqrt(op, grad, x, y):
    return m.divide(grad, m.multiply(y, 2))


@_unary_rule("Exp")
def _exp(op, grad, x, y):
    return m.multiply(grad, y)


@_unary_rule("Log")
def _log(op, grad, x, y):
    return m.divide(grad, x)


@_unary_rule("Tanh")
def _tanh(op, grad, x, y):
    return m.multiply(grad, m.subtract(1, m.square(y)))


@_unary_rule("Sigmoid")
def _sigmoid(op, grad, x, y):
    return m.multiply(grad, m.multiply(y, m.subtract(1, y)))


def _swap_last_axes(t):
    rank = t.shape.rank
    if rank is None:
        raise ValueError("the gradient of matmul needs operands of known rank")
    return transpose(t, list(range(rank - 2)) + [rank - 1, rank - 2])


@register_gradient("MatMul")
def _matmul(op, grad):
    a, b = op.inputs
    # Batch dims broadcast like elementwise ops, so the batch gradient is reduced too.
    return (unbroadcast(m.matmul(grad, _swap_last_axes(b)), a),
            unbroadcast(m.matmul(_swap_last_axes(a), grad), b))
