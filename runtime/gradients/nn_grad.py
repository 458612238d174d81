"""Gradient rules of the neural-network ops (runtime/ops/nn_ops.py), and the two conv2d
backprop ops.

Contract: relu passes the gradient where x > 0; softmax uses y * (g - sum(g * y)).
conv2d's gradients are the ops `Conv2DBackpropInput(grad, filters, like_input)` and
`Conv2DBackpropFilter(input, grad, like_filters)` (the `like_` input gives the shape to
produce, known at run time); each is linear in its first two inputs, so their own rules
are conv2d and each other, which gives second derivatives.
"""

import math

import numpy as np
from autograph_py.runtime.gradients.math_grad import masked
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.nn_ops import conv2d
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient
from numpy.lib.stride_tricks import sliding_window_view


@register_gradient("Relu")
def _relu(op, grad):
    return (masked(grad, m.greater(op.inputs[0], 0)),)


@register_gradient("Softmax")
def _softmax(op, grad):
    y = op.outputs[0]
    total = reduce_sum(m.multiply(grad, y), axis=op.attrs["axis"], keepdims=True)
    return (m.multiply(m.subtract(grad, total), y),)


# --- conv2d ---------------------------------------------------------------------------------


def _padding(in_size, window, stride, padding):
    """(before, after) zero padding of one spatial dim, as the forward kernel pads it."""
    if padding == "VALID":
        return 0, 0
    total = max((math.ceil(in_size / stride) - 1) * stride + window - in_size, 0)
    return total // 2, total - total // 2


def _padded_input_shape(x_shape, w_shape, strides, padding):
    pads = [_padding(x_shape[1 + i], w_shape[i], strides[i], padding) for i in (0, 1)]
    n, h, w, c = x_shape
    return (n, h + sum(pads[0]), w + sum(pads[1]), c), pads


def _backprop_input_kernel(grad, w, like, strides, padding):
    (kh, kw, _, _), (sh, sw) = w.shape, strides
    padded_shape, pads = _padded_input_shape(like.shape, w.shape, strides, padding)
    out = np.zeros(padded_shape, grad.dtype)
    ho, wo = grad.shape[1:3]
    # out[n, i*sh + a, j*sw + b, c] += sum_o grad[n, i, j, o] * w[a, b, c, o]
    for a in range(kh):
        for b in range(kw):
            out[:, a:a + sh * ho:sh, b:b + sw * wo:sw, :] += grad @ w[a, b].T
    (top, _), (left, _) = pads
    return out[:, top:top + like.shape[1], left:left + like.shape[2], :]


def _backprop_filter_kernel(x, grad, like, strides, padding):
    (kh, kw, c, o), (sh, sw) = like.shape, strides
    _, pads = _padded_input_shape(x.shape, like.shape, strides, padding)
    x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    ho, wo = grad.shape[1:3]
    windows = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::sh, ::sw][:, :ho, :wo]
    windows = windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, kh * kw * c)
    return (windows.T @ grad.reshape(-1, o)).reshape(kh, kw, c, o)


def _like_infer(a, b, like, strides, padding):
    return like.shape, a.dtype


register(OpDef("Conv2DBackpropInput", _backprop_input_kernel, _like_infer))
register(OpDef("Conv2DBackpropFilter", _backprop_filter_kernel, _like_infer))


def _backprop_input(grad, w, like, attrs):
    return apply("Conv2DBackpropInput", [grad, w, like], attrs)


def _backprop_filter(x, grad, like, attrs):
    return apply("Conv2DBackpropFilter", [x, grad, like], attrs)


@register_gradient("Conv2D")
def _conv2d(op, grad):
    x, w = op.inputs
    return _backprop_input(grad, w, x, op.attrs), _backprop_filter(x, grad, w, op.attrs)


def _conv(x, w, attrs):
    return conv2d(x, w, attrs["strides"], attrs["padding"])


@register_gradient("Conv2DBackpropInput")
def _backprop_input_grad(op, grad):
    g, w, like = op.inputs
    return _conv(grad, w, op.attrs), _backprop_filter(grad, g, w, op.attrs), None


@register_gradient("Conv2DBackpropFilter")
def _backprop_filter_grad(op, grad):
    x, g, like = op.inputs
    return _backprop_input(g, grad, x, op.attrs), _conv(x, grad, op.attrs), None
