"""Lowerings of the stateful ops: Variables, print, Assert, random draws.

Contract:
- `ReadVariable` / `Assign*Variable` read and write the Variable's value in the lowering
  context's state, which the compiled function takes as inputs and returns (written
  back to the Variables after a call that succeeds). Inside a replica's program
  (`strategy.run`) the value assigned must be the same on every replica: one that
  differs is a LoweringError naming the Variable.
- `PrintV2` runs the numpy kernel on the host through an ordered `jax.debug.callback`
  (the same text as the numpy runtime, in program order).
- `Assert` is a check: a failed condition makes the call raise InvalidArgumentError, on
  return, with the message and data rendered as the numpy kernel does (the data are
  sent to the host by a callback only when the condition fails).
- Random ops draw from JAX's PRNG with the key the context carries (split per draw); an
  op-level seed is folded into it. The numbers differ from the numpy runtime's draws,
  the distributions do not. The key of each call comes from `ag.random`'s generator, so
  `ag.random.set_seed` makes compiled draws reproducible too.
"""

import threading

import jax
import jax.numpy as jnp
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops.check_ops import failure_message
from autograph_py.runtime.ops.logging_ops import render
from autograph_py.runtime.ops.shape_args import resolve
from autograph_py.runtime.xla.collective_rules import AXIS
from autograph_py.runtime.xla.jax_internals import varying_axes
from autograph_py.runtime.xla.lowering import run_kernel_on_host, static
from autograph_py.runtime.xla.table import lowering_error, register_lowering


@register_lowering("ReadVariable")
def _read(ctx, op):
    return ctx.read(op.attrs["var"])


@register_lowering("AssignVariable", "AssignAddVariable", "AssignSubVariable")
def _assign(ctx, op, value):
    var = op.attrs["var"]
    if AXIS in varying_axes(value):
        raise lowering_error(op, _DIFFERS.format(name=var.name))
    if op.type != "AssignVariable":
        sign = 1 if op.type == "AssignAddVariable" else -1
        value = ctx.read(var) + sign * jnp.asarray(value, var.dtype.np_dtype)
    ctx.write(var, value)
    return ctx.read(var)


# Inside strategy.run (runtime/xla/replicas.py) a Variable is mirrored: one value.
_DIFFERS = ("Variable '{name}' is mirrored (one value on every replica), but inside "
            "strategy.run it is assigned a value that differs between replicas: combine "
            "it first with ag.distribute.get_replica_context().all_reduce(SUM or MEAN, "
            "value), as the optimizers do with gradients")


@register_lowering("PrintV2")
def _print(ctx, op, *arrays):
    jax.debug.callback(lambda *values: run_kernel_on_host(op, *values), *arrays, ordered=True)
    return ()


class AssertMessages:
    """The rendered messages of failed Asserts, by error code, until the caller takes them."""

    def __init__(self):
        self._lock = threading.Lock()
        self._messages = {}

    def put(self, code, message):
        with self._lock:
            self._messages.setdefault(code, message)

    def take(self, code):
        with self._lock:
            message = self._messages.get(code)
            self._messages.clear()
            return message


@register_lowering("Assert")
def _assert(ctx, op, condition, *data):
    attrs = op.attrs
    ctx.check_reported(op, condition, InvalidArgumentError, failure_message(""),
                       lambda *values: failure_message(render(
                           attrs["template"], values, " ", attrs["summarize"])), *data)
    return ()


@register_lowering("RequireBound")
def _require_bound(ctx, op, value, bound):
    # Inside a branch it was re-created there (FuncGraph.capture): its check is guarded
    # by the branch, as any check in it.
    ctx.check(op, bound, InvalidArgumentError, op.attrs["message"])
    return value


def _draw_key(ctx, op):
    key = ctx.next_key(op)
    seed = op.attrs["seed"]
    return key if seed is None else jax.random.fold_in(key, seed)


def _shape(op, shape_input):
    shape = op.attrs["shape"]
    if shape is None:
        static(op, shape_input[0], "the shape of a random draw")
    return tuple(int(d) for d in resolve(shape, shape_input))


@register_lowering("RandomUniform")
def _uniform(ctx, op, low, high, *shape_input):
    shape, dtype = _shape(op, shape_input), op.outputs[0].dtype.np_dtype
    key = _draw_key(ctx, op)
    if dtype.kind == "f":
        return jax.random.uniform(key, shape, dtype, low, high)
    ctx.check(op, low < high, ValueError, "uniform needs minval < maxval")
    return jax.random.randint(key, shape, low, high, dtype)


@register_lowering("RandomNormal")
def _normal(ctx, op, mean, stddev, *shape_input):
    shape, dtype = _shape(op, shape_input), op.outputs[0].dtype.np_dtype
    return jax.random.normal(_draw_key(ctx, op), shape, dtype) * stddev + mean
