"""One replica's program run on every device of a mesh: `strategy.run` on JAX's
`shard_map`.

Contract:
- `local_devices()` are this process's devices (a strategy's default); `device(name)`
  reads a device's name as TensorFlow writes it ("/gpu:1", "cpu:0").
- `Replicas(devices)` is a 1-D `Mesh` of the devices with one axis, `AXIS` ("replica"),
  of the `Auto` axis type. Not `jax.make_mesh`'s default (`Explicit` in this JAX): an
  Explicit mesh refuses `shard_map` inputs that carry no sharding of their own and
  breaks `vmap` of a `while_loop` (docs/distribute.md, "JAX traps").
- `replica_call(graph, inputs, replicas, sharded)` runs `graph` (one replica's traced
  program) as one `ReplicaCall` op (eagerly now, or added to the graph being built):
  input i is split over the replicas along its first axis when `sharded[i]` (a
  PerReplica's stacked tensor: replica r gets row r), else given whole to each (the same
  value everywhere). Each output comes back stacked: [replicas, *its shape].
- Variables are mirrored: their one value goes to every replica, and a value assigned
  inside must be the same on every replica (an all-reduced one); assigning a value that
  differs is refused when the program is lowered (state_rules). A failed check on any
  replica fails the call (the first code, `pmax`). Random draws differ per replica
  (the key is folded with the replica's index).
- The op's kernel is the jitted `shard_map` (`ShardedGraph`, made once per graph, mesh
  and split); its lowering, inside a compiled function, is the same `shard_map` inlined,
  so `ag.function(jit_compile=True)` around a training loop compiles to one program.
- Several processes (`jax.distributed`): inputs are made global arrays from the whole
  value each process holds (every process reads the same global batch and keeps its
  devices' rows), and outputs are gathered to every process.
"""

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.ops import random_ops
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.tensor import read_only
from autograph_py.runtime.xla.collective_rules import AXIS
from autograph_py.runtime.xla.compiled import CompiledGraph
from autograph_py.runtime.xla.table import register_lowering
from jax import lax
from jax.experimental import multihost_utils
from jax.sharding import AxisType, Mesh, NamedSharding
from jax.sharding import PartitionSpec as P


class Replicas:
    def __init__(self, devices):
        self.devices = tuple(devices)
        if not self.devices:
            raise ValueError("a strategy needs at least one device")
        self.mesh = Mesh(np.array(self.devices), (AXIS,), axis_types=(AxisType.Auto,))
        self.num_replicas = len(self.devices)
        process = jax.process_index()
        self.multiprocess = any(d.process_index != process for d in self.devices)
        self.local = tuple(i for i, d in enumerate(self.devices) if d.process_index == process)
        self._shardings = (NamedSharding(self.mesh, P()), NamedSharding(self.mesh, P(AXIS)))

    def to_global(self, array, sharded):
        """`array` (the whole value, held by this process) on the mesh."""
        sharding = self._shardings[bool(sharded)]
        if not self.multiprocess:
            return jax.device_put(array, sharding)
        array = np.asarray(array)
        return jax.make_array_from_callback(array.shape, sharding, lambda index: array[index])

    def to_host(self, value):
        """The whole of a result, as a numpy array, in every process."""
        if value.is_fully_addressable:
            return np.asarray(value)
        if value.sharding.is_fully_replicated:
            return np.asarray(value.addressable_data(0))
        return np.asarray(multihost_utils.process_allgather(value, tiled=True))

    def __repr__(self):
        return f"Replicas({len(self.devices)} devices: {self.devices[0]}, ...)"


def local_devices():
    return jax.local_devices()


def device(name):
    """The JAX device `name` stands for: a Device, or TensorFlow's and JAX's names
    ("cpu:0", "/gpu:1", "/job:localhost/replica:0/task:0/device:GPU:0")."""
    if not isinstance(name, str):
        return name
    platform, _, index = name.lower().rpartition("device:")[2].lstrip("/").rpartition(":")
    try:
        return jax.devices(platform or None)[int(index)]
    except (RuntimeError, ValueError, IndexError):
        raise ValueError(f"no JAX device {name!r}: the devices are "
                         f"{[str(d) for d in jax.devices()]}") from None


def _spec(sharded):
    return P(AXIS) if sharded else P()


class ShardedGraph:
    """`graph`, one replica's program, as one function over the whole mesh."""

    def __init__(self, graph, replicas, sharded):
        self.replicas, self.sharded = replicas, tuple(sharded)
        self.compiled = CompiledGraph(graph, graph.inputs, graph.outputs, lower_now=False)
        self.sharded_call = jax.shard_map(
            self._per_replica, mesh=replicas.mesh,
            in_specs=([_spec(s) for s in self.sharded], P(), P()),
            out_specs=([P(AXIS)] * len(graph.outputs), P(), P()))
        self._jitted = jax.jit(self.sharded_call)

    def replica_shapes(self, shapes):
        return tuple(tuple(s[1:]) if split else tuple(s)
                     for s, split in zip(shapes, self.sharded))

    def _per_replica(self, args, values, seed):
        args = [a[0] if split else a for a, split in zip(args, self.sharded)]
        # Each replica draws its own numbers (dropout masks differ, as TF's replicas').
        seed = seed + lax.axis_index(AXIS).astype(jnp.uint32) if self.compiled.random \
            else None
        outputs, values, error = self.compiled.lowered(args, values, seed)
        # The first failure of any replica, the same on all (a mirrored result).
        error = jnp.int32(0) if error is None else lax.pmax(error, AXIS)
        return [jnp.expand_dims(o, 0) for o in outputs], values, error

    def run(self, arrays):
        compiled, replicas = self.compiled, self.replicas
        seed = np.uint32(random_ops.seed_for_compiled_call() if compiled.random else 0)
        with compiled.precision():
            args = [replicas.to_global(a, split) for a, split in zip(arrays, self.sharded)]
            values = [replicas.to_global(v._value, False) for v in compiled.variables]
            outputs, values, error = self._jitted(args, values,
                                                  replicas.to_global(seed, False))
        if compiled.prints:
            jax.effects_barrier()
        compiled.raise_failed_check(
            replicas.to_host(error), arrays,
            self.replica_shapes(np.shape(a) for a in arrays))
        for i, value in zip(compiled.assigned, values):
            compiled.variables[i]._value = read_only(replicas.to_host(value))
        return [replicas.to_host(o) for o in outputs]


def sharded_graph(graph, replicas, sharded):
    made = graph.derived.once("sharded", dict)
    key = (replicas, tuple(sharded))
    found = made.get(key)
    if found is None:
        found = made[key] = ShardedGraph(graph, replicas, sharded)
    return found


def _kernel(_ctx, *inputs, graph, replicas, sharded, output_specs):
    # Mirrored Variables live on themselves (as in any compiled call), not in the context.
    return tuple(sharded_graph(graph, replicas, sharded).run(list(inputs)))


def _infer(*inputs, graph, replicas, sharded, output_specs):
    return list(output_specs)


# Stateful: it may read and assign Variables (and a function runs it in program order).
register(OpDef("ReplicaCall", _kernel, _infer, num_outputs=-1, stateful=True,
               needs_context=True))


def replica_call(graph, inputs, replicas, sharded):
    specs = [((replicas.num_replicas, *t.shape.dims), t.dtype) for t in graph.outputs]
    return tuple(apply("ReplicaCall", list(inputs),
                       {"graph": graph, "replicas": replicas, "sharded": tuple(sharded),
                        "output_specs": specs}))


@register_lowering("ReplicaCall")
def _inline(ctx, op, *inputs):
    attrs = op.attrs
    program = sharded_graph(attrs["graph"], attrs["replicas"], attrs["sharded"])
    compiled = program.compiled
    values = [ctx.read(v) for v in compiled.variables]
    seed = jax.random.bits(ctx.next_key(op), (), jnp.uint32) if compiled.random \
        else jnp.uint32(0)
    outputs, values, error = program.sharded_call(list(inputs), values, seed)
    for i, value in zip(compiled.assigned, values):
        ctx.write(compiled.variables[i], value)
    # The replica's checks join the enclosing program's, their codes shifted past its own.
    checks = compiled.checks_for(program.replica_shapes(np.shape(x) for x in inputs))
    if checks:
        offset = len(ctx.checks)
        ctx.checks.extend(checks)
        ctx.error = jnp.where((ctx.error == 0) & (error > 0), error + offset, ctx.error)
    return tuple(outputs)
