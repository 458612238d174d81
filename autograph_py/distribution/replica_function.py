"""The replica function of `strategy.run`: `fn` converted and traced once per argument
structure and per-replica shapes, as one replica's program.

Contract: `ReplicaFunctions.trace(fn, args, kwargs, strategy)` returns `(concrete,
inputs, sharded)`: the `ConcreteFunction` of `fn` traced on one replica's share of the
arguments (a PerReplica leaf gives its row spec, a tensor its own spec, any other value
is passed to `fn` as it is and keys the trace), the global tensors to feed it (a
PerReplica's stacked tensor, or the tensor) and which of them are split. The trace runs
inside the strategy's replica context, so `all_reduce` and the optimizers' gradient
aggregation build collective ops. Traces are cached per function (held weakly) and
argument structure; the `ag.function` cache under it keys the shapes.
"""

import weakref

import numpy as np

from autograph_py.conversion import to_graph
from autograph_py.runtime import nest_api
from autograph_py.runtime.distribute import PerReplica, replica_fn_context
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import Tensor
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.variables import Variable
from autograph_py.tracing.function import Function

_SPLIT, _WHOLE = "per-replica", "tensor"


def _leaf_kind(leaf):
    if isinstance(leaf, PerReplica):
        return _SPLIT
    if isinstance(leaf, Tensor) and not isinstance(leaf, Variable):
        return _WHOLE
    return None


def _static_key(leaf):
    try:
        hash(leaf)
    except TypeError:
        return ("id", id(leaf))
    return ("value", type(leaf), leaf)


class ReplicaFunctions:
    def __init__(self):
        self._by_fn = weakref.WeakKeyDictionary()  # function -> {structure key: Function}

    def trace(self, fn, args, kwargs, strategy):
        structure = (tuple(args), dict(kwargs))
        leaves = [convert_to_tensor(leaf) if isinstance(leaf, np.ndarray) else leaf
                  for leaf in nest_api.flatten(structure)]
        kinds = [_leaf_kind(leaf) for leaf in leaves]
        key = (repr(nest_api.map_structure(lambda _: 0, structure)),
               id(getattr(fn, "__self__", None)),  # a bound method: one trace per instance
               tuple(kind or _static_key(leaf) for kind, leaf in zip(kinds, leaves)))
        target = getattr(fn, "__func__", fn)
        functions = self._by_fn.setdefault(target, {})
        function = functions.get(key)
        if function is None:
            function = functions[key] = _replica_function(fn, structure, leaves, kinds)
        inputs = [leaf.stacked if kind == _SPLIT else leaf
                  for kind, leaf in zip(kinds, leaves) if kind]
        specs = [TensorSpec(t.shape.dims[1:] if kind == _SPLIT else t.shape.dims, t.dtype)
                 for t, kind in zip(inputs, (k for k in kinds if k))]
        with replica_fn_context(strategy):
            concrete = function.get_concrete_function(*specs)
        return concrete, inputs, tuple(kind == _SPLIT for kind in kinds if kind)


def _replica_function(fn, structure, leaves, kinds):
    converted = to_graph(fn)
    statics = [None if kind else leaf for kind, leaf in zip(kinds, leaves)]

    def replica_fn(*tensors):
        feed = iter(tensors)
        values = [next(feed) if kind else static for kind, static in zip(kinds, statics)]
        args, kwargs = nest_api.pack_sequence_as(structure, values)
        return converted(*args, **kwargs)

    name = getattr(fn, "__name__", "replica_fn")
    # Never compiled on its own: its collectives lower only inside the sharded call.
    return Function(replica_fn, autograph=False, name=f"{name}_replica", jit_compile=False)
