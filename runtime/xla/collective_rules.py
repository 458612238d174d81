"""Lowerings of the collective ops (runtime/ops/collective_ops.py): JAX's collectives over
the replica axis of the `shard_map` a `ReplicaCall` runs (runtime/xla/replicas.py).

Contract: `AllReduce` is `lax.psum` (sum) or `lax.pmean` (mean) over `AXIS`, the name of
the replica axis of every strategy's mesh;
`ReplicaId` is `lax.axis_index` as int32. Lowered outside a replica's program they fail
as JAX does on an unbound axis name, which only happens if a graph built inside
`strategy.run` is run some other way.
"""

import jax.numpy as jnp
from autograph_py.runtime.xla.table import register_lowering
from jax import lax

AXIS = "replica"


@register_lowering("AllReduce")
def _all_reduce(ctx, op, x):
    if op.attrs["reduction"] == "mean":
        return lax.pmean(x, AXIS)
    return lax.psum(x, AXIS)


@register_lowering("ReplicaId")
def _replica_id(ctx, op):
    return lax.axis_index(AXIS).astype(jnp.int32)
