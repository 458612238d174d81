"""`PerReplica`: one value per replica, and `strategy.reduce`'s arithmetic on it.

Contract:
- A PerReplica holds one tensor, `stacked`, whose first axis counts the replicas: row r
  is replica r's value. A distributed dataset's batch of B rows is the global batch
  reshaped to [replicas, B / replicas, ...] (no copy), what `strategy.run` returns is
  each replica's result stacked. So `strategy.run` feeds row r to replica r, and
  reducing is a reduction over the first axis, eagerly or in a graph alike.
- It is a composite of `nest` (its one component: `stacked`), so it crosses staged
  loops, `cond` and `ag.function` boundaries as its tensor (the trace key names the
  type: a PerReplica argument and a plain tensor never share a trace).
- `values` (TensorFlow's `PerReplica.values`) is the tuple of the replicas' values.
- `reduce_per_replica(reduce_op, value, axis, num_replicas)` is `strategy.reduce`: over
  the replicas (and along `axis` of each replica's value when given). A value that is
  not per-replica is the same on every replica: MEAN gives it back (reduced along `axis`
  first), SUM refuses it when there are several replicas, as TensorFlow does.
"""

from autograph_py.runtime.distribute.reduce_op import ReduceOp, as_reduce_op
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.reduction_ops import reduce_mean, reduce_sum
from autograph_py.runtime.tensor import EagerTensor


class PerReplica:
    __slots__ = ("stacked",)

    def __init__(self, stacked):
        self.stacked = stacked

    @property
    def values(self):
        count = self.stacked.shape[0]
        if count is None:
            raise ValueError("the number of replicas of this PerReplica value is not known "
                             "while the graph is built")
        return tuple(self.stacked[i] for i in range(count))

    @property
    def num_replicas(self):
        return self.stacked.shape[0]

    # --- composite protocol (runtime/nest.py) ------------------------------------------

    def _nest_components(self):
        return [self.stacked]

    def _nest_rebuild(self, components):
        return PerReplica(components[0])

    def _trace_signature(self):
        return ()

    def __repr__(self):
        if not isinstance(self.stacked, EagerTensor):  # symbolic, or a spec (element_spec)
            return f"PerReplica({self.stacked!r})"
        values = self.values
        return "PerReplica:{" + ",".join(f"\n  {i}: {v!r}" for i, v in enumerate(values)) + \
            "\n}"


def _reduction(reduce_op):
    return reduce_sum if reduce_op is ReduceOp.SUM else reduce_mean


def reduce_per_replica(reduce_op, value, axis, num_replicas):
    reduce_op = as_reduce_op(reduce_op)
    reduction = _reduction(reduce_op)
    if isinstance(value, PerReplica):
        if axis is None:
            return reduction(value.stacked, axis=0)
        rank = value.stacked.shape.rank
        if rank is not None and not -(rank - 1) <= axis < rank - 1:
            raise ValueError(f"axis {axis} is out of range for per-replica values of rank "
                             f"{rank - 1}")
        if axis < 0:
            axis += rank - 1
        return reduction(value.stacked, axis=[0, axis + 1])
    if reduce_op is ReduceOp.SUM and num_replicas > 1:
        raise ValueError(
            f"strategy.reduce(SUM) of a value that is not per-replica ({value!r:.80}): it is "
            f"the same on all {num_replicas} replicas, so there is nothing to sum (TensorFlow "
            "refuses it too); reduce what strategy.run returns, or use MEAN")
    value = convert_to_tensor(value)
    return value if axis is None else reduce_mean(value, axis=axis)
