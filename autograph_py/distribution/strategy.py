"""The strategies: TensorFlow's `tf.distribute` API over JAX's devices.

Contract:
- `Strategy` is what every strategy offers: `num_replicas_in_sync`, `scope()`,
  `run(fn, args=(), kwargs=None)`, `reduce(reduce_op, value, axis=None)`,
  `experimental_distribute_dataset(dataset)`, `experimental_local_results(value)`,
  `gather(value, axis)`.
- `MirroredStrategy(devices=None)`: one replica per device (JAX devices, or names such as
  "cpu:0", "/gpu:1"; all local devices by default). `run` traces `fn` on one replica's
  share of its arguments (autograph_py/distribution/replica_function.py) and runs it on
  every device at once, compiled by XLA (runtime/xla/replicas.py: `shard_map` over a
  1-D "replica" mesh), eagerly or as one op of the graph being built. It returns a
  PerReplica for each tensor `fn` returns (Python values as they are).
- Variables are mirrored: one value, given to every replica; a Variable created in the
  scope or outside it alike (the scope makes the strategy current: `get_strategy()`,
  and `get_replica_context()` is None there, the cross-replica context).
- The default strategy (`get_strategy()` outside every scope) has one replica and needs
  no JAX: `run` calls `fn`, `reduce` gives a non-PerReplica value back.
- Creating a MirroredStrategy without JAX raises an ImportError naming the `[xla]` extra.
"""

from autograph_py.distribution.replica_function import ReplicaFunctions
from autograph_py.runtime import distribute, nest
from autograph_py.runtime.data import Dataset
from autograph_py.runtime.distribute import replica_context as contexts
from autograph_py.runtime.ops.array_ops import concat
from autograph_py.runtime.tensor import SymbolicTensor
from autograph_py.runtime.xla import EXTRA_HINT, require_jax


class Strategy:
    """The API every strategy shares; subclasses set `num_replicas_in_sync`."""

    num_replicas_in_sync = 1

    def scope(self):
        """A context in which this strategy is current (`ag.distribute.get_strategy()`)."""
        return contexts.strategy_scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        # One replica: the default replica context is what `fn` sees already.
        return fn(*args, **(kwargs or {}))

    def reduce(self, reduce_op, value, axis=None):
        """`value` (what `run` returned) combined over the replicas, and along `axis` of
        each replica's value when given: TensorFlow's `strategy.reduce`."""
        return distribute.reduce_per_replica(reduce_op, value, axis, self.num_replicas_in_sync)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def experimental_local_results(self, value):
        """The values of this process's replicas, as a tuple."""
        return value.values if isinstance(value, distribute.PerReplica) else (value,)

    def gather(self, value, axis):
        """The replicas' values concatenated along `axis` (TensorFlow's `gather`)."""
        if not isinstance(value, distribute.PerReplica):
            return value
        return concat(list(value.values), axis)

    def __repr__(self):
        return f"<{type(self).__name__}: {self.num_replicas_in_sync} replicas>"


class DefaultStrategy(Strategy):
    """One replica, in this process, without JAX (TensorFlow's default strategy)."""


def _require_jax(name):
    try:
        require_jax()
    except ImportError as e:
        raise ImportError(f"ag.distribute.{name} runs on JAX's devices: {EXTRA_HINT}") from e
    # The sharded call, its lowering and the collectives' rows (they import jax).
    from autograph_py.runtime.xla import processes, replicas  # noqa: PLC0415

    return replicas, processes


class MirroredStrategy(Strategy):
    def __init__(self, devices=None, cross_device_ops=None):
        self._replicas_module, self._processes = _require_jax(type(self).__name__)
        self._replicas = self._replicas_module.Replicas(self._devices(devices))
        self.num_replicas_in_sync = self._replicas.num_replicas
        self._functions = ReplicaFunctions()

    def _devices(self, devices):
        if devices is None:
            return self._replicas_module.local_devices()
        return [self._replicas_module.device(d) for d in devices]

    @property
    def devices(self):
        return self._replicas.devices

    def run(self, fn, args=(), kwargs=None, options=None):
        """`fn(*args, **kwargs)` on every replica: a PerReplica argument gives replica r
        its row r, any other tensor is given whole to each."""
        if not isinstance(args, (tuple, list)):
            args = (args,)
        concrete, inputs, sharded = self._functions.trace(fn, args, kwargs or {}, self)
        outputs = self._replicas_module.replica_call(concrete.graph, inputs, self._replicas,
                                                     sharded)
        return _structured(concrete, outputs)

    def experimental_distribute_dataset(self, dataset, options=None):
        """`dataset` with each global batch split over the replicas (a batch whose size
        is not a multiple of `num_replicas_in_sync` is refused: docs/distribute.md)."""
        if not isinstance(dataset, Dataset):
            raise TypeError(f"experimental_distribute_dataset takes an ag.data.Dataset, got "
                            f"{dataset!r:.60}")
        return distribute.DistributedDataset(dataset, self.num_replicas_in_sync)

    def experimental_local_results(self, value):
        if not isinstance(value, distribute.PerReplica):
            return (value,)
        return tuple(value.stacked[i] for i in self._replicas.local)


def _structured(concrete, outputs):
    """What `fn` returned, each tensor now the PerReplica of its stacked output."""
    flat = nest.flatten(concrete.structured_outputs)
    found = iter(outputs)
    flat = [distribute.PerReplica(next(found)) if isinstance(leaf, SymbolicTensor) else leaf
            for leaf in flat]
    if not nest.is_nested(concrete.structured_outputs):
        return flat[0]
    return nest.pack_sequence_as(concrete.structured_outputs, flat)
