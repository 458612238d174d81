"""Ops that talk across replicas: what `ReplicaContext.all_reduce` and
`replica_id_in_sync_group` build inside `strategy.run`'s replica function.

Contract:
- `AllReduce(x, reduction="sum"|"mean", num_replicas=R)`: every replica gets the sum (or
  the mean) of all replicas' `x`. Its lowering (runtime/xla/collective_rules.py) is
  `lax.psum` / `lax.pmean` over the strategy's replica axis. The numpy kernel is the
  answer for a value that is the same on every replica (what a known value is, so
  folding it is right): `x * R` for a sum, `x` for a mean.
- `ReplicaId(num_replicas=R)`: this replica's index, an int32 scalar (`lax.axis_index`).
  It takes the context, so it is never folded; the numpy kernel (one replica) gives 0.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register

REDUCTIONS = ("sum", "mean")


def _all_reduce_kernel(x, reduction, num_replicas):
    if reduction == "mean":
        return x
    return (x * num_replicas).astype(x.dtype, copy=False)


def _all_reduce_infer(x, reduction, num_replicas):
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, got {reduction!r}")
    if x.dtype.is_bool:
        raise TypeError("all_reduce needs numbers, got a bool tensor")
    return x.shape, x.dtype


register(OpDef("AllReduce", _all_reduce_kernel, _all_reduce_infer))


def all_reduce(x, reduction, num_replicas, name=None):
    return apply("AllReduce", [convert_to_tensor(x)],
                 {"reduction": reduction, "num_replicas": int(num_replicas)}, op_name=name)


def _replica_id_kernel(_ctx, num_replicas):
    return np.int32(0)


register(OpDef("ReplicaId", _replica_id_kernel, lambda num_replicas: ((), dtypes.int32),
               needs_context=True))


def replica_id(num_replicas, name=None):
    return apply("ReplicaId", [], {"num_replicas": int(num_replicas)}, op_name=name)
