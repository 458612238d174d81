"""Which strategy is in scope and which replica context is active, per thread.

Contract:
- `strategy_scope(strategy)` (what `strategy.scope()` enters) makes `strategy` the
  current one in this thread; `current_strategy()` is the innermost, else the default
  strategy the API registered (`set_default_strategy`: one replica, no JAX).
- `replica_fn_context(strategy)` is entered by `strategy.run` while it traces the replica
  function: inside it, `get_replica_context()` is a `ReplicaContext` whose `all_reduce`
  builds `AllReduce` ops (runtime/ops/collective_ops.py) that the sharded call lowers
  to JAX collectives. Outside any `run`: inside a strategy's scope there is no replica
  context (None: the cross-replica context, as in TensorFlow); outside every scope it is
  the default context of one replica, whose `all_reduce` gives the values back.
- `aggregate_gradients(gradients)` is what optimizers call before applying: inside a
  replica function each gradient is all-reduced with SUM (as
  TensorFlow's optimizers do), elsewhere the gradients are returned as they are.
"""

import contextlib
import threading

from autograph_py.runtime import nest
from autograph_py.runtime.distribute.reduce_op import ReduceOp, as_reduce_op
from autograph_py.runtime.ops import collective_ops
from autograph_py.runtime.ops.core import convert_to_tensor


class _State(threading.local):
    def __init__(self):
        self.strategies = []
        self.replica = None  # the ReplicaContext of the replica function being traced


_STATE = _State()
_DEFAULT = [None]


def set_default_strategy(strategy):
    _DEFAULT[0] = strategy


def current_strategy():
    return _STATE.strategies[-1] if _STATE.strategies else _DEFAULT[0]


def has_strategy():
    return bool(_STATE.strategies)


@contextlib.contextmanager
def strategy_scope(strategy):
    if _STATE.strategies and _STATE.strategies[-1] is not strategy:
        raise ValueError(f"{type(strategy).__name__}.scope() inside the scope of another "
                         f"strategy ({type(_STATE.strategies[-1]).__name__}): TensorFlow "
                         "refuses mixing strategies too")
    _STATE.strategies.append(strategy)
    try:
        yield strategy
    finally:
        _STATE.strategies.pop()


@contextlib.contextmanager
def replica_fn_context(strategy):
    outer, _STATE.replica = _STATE.replica, ReplicaContext(strategy, in_replica_fn=True)
    _STATE.strategies.append(strategy)
    try:
        yield _STATE.replica
    finally:
        _STATE.strategies.pop()
        _STATE.replica = outer


def get_replica_context():
    if _STATE.replica is not None:
        return _STATE.replica
    if _STATE.strategies:
        return None  # in a strategy's scope, outside `run`: the cross-replica context
    return ReplicaContext(current_strategy(), in_replica_fn=False)


def in_cross_replica_context():
    return _STATE.replica is None and bool(_STATE.strategies)


class ReplicaContext:
    """What code running on one replica asks (TensorFlow's `tf.distribute.ReplicaContext`)."""

    def __init__(self, strategy, in_replica_fn):
        self.strategy = strategy
        self._in_replica_fn = in_replica_fn

    @property
    def num_replicas_in_sync(self):
        return 1 if self.strategy is None else self.strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index, an int32 scalar (0 outside a replica function)."""
        if self._in_replica_fn:
            return collective_ops.replica_id(self.num_replicas_in_sync)
        return convert_to_tensor(0)

    def all_reduce(self, reduce_op, value):
        """`value` (a nest of tensors) combined over the replicas: each replica gets the
        sum, or the mean, of every replica's value."""
        reduce_op = as_reduce_op(reduce_op)
        if not self._in_replica_fn:
            return nest.map_structure(convert_to_tensor, value)  # one replica: itself
        # Even over one replica: the collective is what tells JAX the value is the same
        # everywhere (mirrored), which assigning it to a Variable needs.
        reduction = "sum" if reduce_op is ReduceOp.SUM else "mean"
        return nest.map_structure(
            lambda t: collective_ops.all_reduce(t, reduction, self.num_replicas_in_sync),
            value)

    def __repr__(self):
        return (f"<ReplicaContext of {type(self.strategy).__name__}, "
                f"{self.num_replicas_in_sync} replicas>")


def aggregate_gradients(gradients):
    context = _STATE.replica
    if context is None:
        return gradients
    return [None if g is None else context.all_reduce(ReduceOp.SUM, g) for g in gradients]
