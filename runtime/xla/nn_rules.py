"""Lowerings of the neural-network ops: softmax, log-softmax, the sparse cross-entropy,
conv2d and its two adjoints (vector-Jacobian products of the conv2d lowering).

Contract: the results of the numpy kernels; labels out of [0, classes) are a check
(ValueError on return), as the kernel raises.
"""

import jax
import jax.numpy as jnp
from autograph_py.runtime.ops.infer import normalize_axis
from autograph_py.runtime.xla.math_rules import vjp_of
from autograph_py.runtime.xla.table import register_lowering
from jax import lax


@register_lowering("Softmax")
def _softmax(ctx, op, x):
    axis = normalize_axis(op.attrs["axis"], x.ndim)
    shifted = jnp.exp(x - jnp.max(x, axis=axis, keepdims=True))
    return shifted / jnp.sum(shifted, axis=axis, keepdims=True)


@register_lowering("LogSoftmax")
def _log_softmax(ctx, op, x):
    return jax.nn.log_softmax(x, axis=normalize_axis(op.attrs["axis"], x.ndim))


@register_lowering("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(ctx, op, labels, logits):
    classes = logits.shape[-1]
    ctx.check(op, (labels >= 0) & (labels < classes), ValueError,
              f"labels must be in [0, {classes}) (the number of classes)")
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits, -1), labels[..., None], -1)
    return -picked[..., 0]


def _conv_fn(strides, padding):
    def conv(x, w):
        return lax.conv_general_dilated(x, w, tuple(strides), padding,
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))

    return conv


@register_lowering("Conv2D")
def _conv2d(ctx, op, x, w):
    return _conv_fn(op.attrs["strides"], op.attrs["padding"])(x, w)


@register_lowering("Conv2DBackpropInput")
def _backprop_input(ctx, op, grad, w, like):
    conv = _conv_fn(op.attrs["strides"], op.attrs["padding"])
    return vjp_of(lambda x: conv(x, w), jnp.zeros(like.shape, grad.dtype), grad)


@register_lowering("Conv2DBackpropFilter")
def _backprop_filter(ctx, op, x, grad, like):
    conv = _conv_fn(op.attrs["strides"], op.attrs["padding"])
    return vjp_of(lambda w: conv(x, w), jnp.zeros(like.shape, grad.dtype), grad)
