"""`ag.distribute`: TensorFlow's distribution strategies on JAX's sharding
(docs/distribute.md).

Contract: `NAMESPACE` is the public namespace: `MirroredStrategy`,
`MultiWorkerMirroredStrategy` (strategy.py, multi_worker.py), `Strategy`, `ReduceOp`,
`ReplicaContext`, `DistributedDataset`, `get_strategy`, `has_strategy`,
`get_replica_context`, `in_cross_replica_context`. Importing it imports no JAX: a
strategy imports JAX when it is created, and without it raises an ImportError naming the
`[xla]` extra. The default strategy (one replica) is registered here.
"""

from autograph_py.distribution.multi_worker import MultiWorkerMirroredStrategy
from autograph_py.distribution.strategy import DefaultStrategy, MirroredStrategy, Strategy
from autograph_py.runtime import distribute as _distribute
from autograph_py.runtime.distribute import replica_context as _contexts
from autograph_py.runtime.namespace import Namespace

_contexts.set_default_strategy(DefaultStrategy())

NAMESPACE = Namespace(
    "autograph_py.distribute",
    MirroredStrategy=MirroredStrategy,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    Strategy=Strategy,
    ReduceOp=_distribute.ReduceOp,
    ReplicaContext=_distribute.ReplicaContext,
    DistributedDataset=_distribute.DistributedDataset,
    DistributedValues=_distribute.PerReplica,
    get_strategy=_contexts.current_strategy,
    has_strategy=_contexts.has_strategy,
    get_replica_context=_contexts.get_replica_context,
    in_cross_replica_context=_contexts.in_cross_replica_context,
)
