"""Gradient rules of log_softmax and sparse softmax cross-entropy
(runtime/ops/nn_loss_ops.py); sigmoid cross-entropy is composed of ops that have rules.

Contract: log_softmax: grad - sum(grad) * softmax(x), with softmax = exp(output).
Sparse cross-entropy: grad (one per example) times softmax(logits) - one_hot(labels),
built from the softmax and one_hot ops, so it is differentiable again (second
derivatives) and the number of classes may be known at run time only. Labels get none.
"""

from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import expand_dims, shape
from autograph_py.runtime.ops.manipulation_ops import one_hot
from autograph_py.runtime.ops.nn_ops import softmax
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.registry import register_gradient


@register_gradient("LogSoftmax")
def _log_softmax(op, grad):
    total = reduce_sum(grad, axis=op.attrs["axis"], keepdims=True)
    return (m.subtract(grad, m.multiply(total, m.exp(op.outputs[0]))),)


@register_gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(op, grad):
    labels, logits = op.inputs
    classes = logits.shape.dims[-1] if logits.shape.rank is not None else None
    depth = classes if classes is not None else shape(logits)[-1]
    target = one_hot(labels, depth, dtype=logits.dtype)
    return None, m.multiply(expand_dims(grad, -1), m.subtract(softmax(logits), target))
