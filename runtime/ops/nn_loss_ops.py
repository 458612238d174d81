"""log_softmax and the two cross-entropy losses of `ag.nn` (TensorFlow's names and
argument order; the losses take keyword arguments `labels=`, `logits=` as in TF2).

Contract:
- `log_softmax(logits, axis=None)`: x - logsumexp(x) along `axis` (-1 by default),
  computed stably; floats only.
- `sparse_softmax_cross_entropy_with_logits(labels, logits)`: `labels` int32/int64 of
  shape [d0, ..., dn-1] holding class indices, `logits` floats [d0, ..., dn-1, classes];
  the loss per example, logsumexp(logits) - logits[label]. A label outside
  [0, classes) is a ValueError naming it (TF's CPU kernel raises too).
- `sigmoid_cross_entropy_with_logits(labels, logits)`: per element, of one shape and
  dtype: max(x, 0) - x * z + log(1 + exp(-|x|)), TensorFlow's stable form (with its
  `where`s, so the gradient at x = 0 is sigmoid(0) - z).
"""

import numpy as np
from autograph_py.runtime.ops import infer, nn_ops  # noqa: F401  (nn_ops registers Softmax)
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import where
from autograph_py.runtime.ops.core import binary_operands, convert_to_tensor
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.ops.unary_math_ops import log1p
from autograph_py.runtime.registry import OpDef, apply, get, register
from autograph_py.runtime.shapes import TensorShape


def log_softmax_array(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _log_softmax_kernel(x, axis):
    infer.require_kind(x.dtype, infer.FLOAT)
    return log_softmax_array(x, infer.normalize_axis(axis, x.ndim))


# Softmax's shape rule is LogSoftmax's: floats, the same shape, a valid axis.
register(OpDef("LogSoftmax", _log_softmax_kernel, get("Softmax").infer))


def log_softmax(logits, axis=None, name=None):
    """log(softmax(logits)) along `axis` (default -1), without overflow or log(0)."""
    return apply("LogSoftmax", [convert_to_tensor(logits)],
                 {"axis": -1 if axis is None else int(axis)}, op_name=name)


# --- sparse softmax cross-entropy -----------------------------------------------------


def _check_labels(labels, classes):
    bad = (labels < 0) | (labels >= classes)
    if bad.any():
        raise ValueError(f"labels must be in [0, {classes}) (the number of classes), got "
                         f"{labels[bad].reshape(-1)[0]} at index "
                         f"{tuple(int(i) for i in np.argwhere(bad)[0])}")


def _sparse_xent_kernel(labels, logits):
    infer.require_kind(labels.dtype, infer.INTEGER, "labels")
    infer.require_kind(logits.dtype, infer.FLOAT, "logits")
    if logits.ndim != labels.ndim + 1 or logits.shape[:-1] != labels.shape:
        raise ValueError(f"logits must have shape labels.shape + [classes]: labels "
                         f"{TensorShape(labels.shape)}, logits {TensorShape(logits.shape)}")
    _check_labels(labels, logits.shape[-1])
    picked = np.take_along_axis(log_softmax_array(logits, -1), labels[..., None], -1)
    return -picked[..., 0]


def _sparse_xent_infer(labels, logits):
    infer.require_kind(labels.dtype.np_dtype, infer.INTEGER, "labels")
    infer.require_kind(logits.dtype.np_dtype, infer.FLOAT, "logits")
    if labels.shape.dims is None or logits.shape.dims is None:
        return labels.shape, logits.dtype
    if len(logits.shape.dims) != len(labels.shape.dims) + 1 or not TensorShape(
            logits.shape.dims[:-1]).is_compatible_with(labels.shape):
        raise ValueError(f"logits must have shape labels.shape + [classes]: labels "
                         f"{labels.shape}, logits {logits.shape}")
    return TensorShape(a if a is not None else b for a, b in
                       zip(labels.shape.dims, logits.shape.dims)), logits.dtype


register(OpDef("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_kernel, _sparse_xent_infer))


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-example softmax cross-entropy of integer class `labels` against `logits`."""
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy_with_logits needs labels= and logits=")
    return apply("SparseSoftmaxCrossEntropyWithLogits",
                 [convert_to_tensor(labels), convert_to_tensor(logits)], op_name=name)


# --- sigmoid cross-entropy ------------------------------------------------------------


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Per-element logistic loss of `labels` (probabilities in [0, 1]) against `logits`."""
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits needs labels= and logits=")
    logits, labels = binary_operands(logits, labels, "sigmoid_cross_entropy_with_logits")
    infer.require_specs(infer.FLOAT, logits)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"sigmoid_cross_entropy_with_logits: logits and labels must have "
                         f"the same shape, got {logits.shape} and {labels.shape}")
    positive = m.greater_equal(logits, 0)
    zeros = zeros_like(logits)
    relu_logits = where(positive, logits, zeros)
    neg_abs_logits = where(positive, m.negative(logits), logits)
    return m.add(m.subtract(relu_logits, m.multiply(logits, labels)),
                 log1p(m.exp(neg_abs_logits)), name=name)
