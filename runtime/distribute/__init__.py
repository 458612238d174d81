"""What `ag.distribute` needs from the numpy runtime, with no JAX: the reduction names,
the per-replica value, the replica context converted code and optimizers ask, and the
dataset that splits global batches.

Contract: nothing here imports jax or `runtime.xla`; the strategies (autograph_py/
distribution/) put their compiled, sharded call (runtime/xla/replicas.py) behind these.
"""

from autograph_py.runtime.distribute.dataset import DistributedDataset
from autograph_py.runtime.distribute.reduce_op import ReduceOp
from autograph_py.runtime.distribute.replica_context import (
    ReplicaContext,
    current_strategy,
    get_replica_context,
    in_cross_replica_context,
    replica_fn_context,
    strategy_scope,
)
from autograph_py.runtime.distribute.values import PerReplica, reduce_per_replica

__all__ = ["DistributedDataset", "PerReplica", "ReduceOp", "ReplicaContext",
           "current_strategy", "get_replica_context", "in_cross_replica_context",
           "reduce_per_replica", "replica_fn_context", "strategy_scope"]
