"""Gradient of the cross-replica ops (runtime/ops/collective_ops.py).

Contract: the gradient of an all-reduce is the same all-reduce of the incoming gradient
(an all-sum's is an all-sum, an all-mean's an all-mean): TensorFlow's rule for
`ReplicaContext.all_reduce`. Every replica's loss depends on every replica's input
through the all-reduce, and replica r's gradient is then the derivative of the sum of
all replicas' losses with respect to r's own input, for an all-sum and an all-mean
alike (tests/distribute/test_reductions.py checks it by finite differences).
Without a row, a gradient through `all_reduce` would be None: silently no gradient.
"""

from autograph_py.runtime.ops.collective_ops import all_reduce
from autograph_py.runtime.registry import register_gradient


@register_gradient("AllReduce")
def _all_reduce(op, grad):
    return (all_reduce(grad, op.attrs["reduction"], op.attrs["num_replicas"]),)
