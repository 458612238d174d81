"""Lower one graph to JAX values: the interpreter of the lowering table, run under a trace.

Contract:
- `LoweringContext` is the state a lowered program threads through every op, branch and
  loop: the values of the Variables it touches (fixed order), the PRNG key (when random
  ops occur) and an int32 error code (0: no check failed; `NO_ERROR` itself while no
  check can have failed). `state()` / `set_state()` give and take it as a pytree, which
  control-flow rules carry through `lax`.
- `ctx.set_range(value, lowest, highest)` records that a traced integer scalar (a loop
  counter) only takes values in that range; `ctx.value_range(value)` gives it (or the
  range of a known value), so a check it proves is not emitted.
- `ctx.check(op, ok, error_type, message)` records a run-time check (a failed Assert, an
  integer division by zero, an index out of range): the first failure's code stays in
  the state and is raised, naming the op and the user's line, when the call returns.
  Under `ctx.guard` (a branch computed by a select) a check fails only where the guard
  holds, so the branch not taken never raises. `ctx.check_reported(op, ok, error_type,
  message, render, *data)` is a check whose message depends on values (an Assert's data,
  the index gather refuses): `render(*arrays)` makes it on the host, from `data` sent by
  a callback only when the check fails.
- `lower_graph(ctx, graph, inputs, outputs=None)` lowers the ops `outputs` need plus the
  graph's stateful ops, in graph order. Values known while tracing stay numpy arrays:
  a pure op whose inputs are all known is folded with its numpy kernel (so shapes and
  constants stay static, as XLA needs them), everything else goes through its row.
- A rule failing with ValueError/TypeError/IndexError is re-raised naming the op and the
  user's file:line (`op_error`); a `LoweringError` passes as it is.
"""

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.errors import op_error
from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.recording import EAGER_CONTEXT
from autograph_py.runtime.xla.table import LoweringError, lowering_error, rule_for
from jax import lax

NO_ERROR = np.int32(0)


class LoweringContext:
    def __init__(self, variables, values, key):
        self.variables = list(variables)
        self._values = {id(v): value for v, value in zip(self.variables, values)}
        self.key = key
        self.error = NO_ERROR
        # Whether a lax.while_loop was emitted (JAX's reverse mode cannot differentiate it).
        self.while_loops = False
        # id(traced value) -> (the value, kept alive so its id stays its own, lowest,
        # highest)
        self._ranges = {}
        self.checks = []  # code - 1 -> (op, error type, message)
        self.assert_messages = None  # set by the compiled function (state_rules)
        # While both branches of a conditional are computed (a select), the condition
        # under which the current one is the branch taken: its checks count only then.
        self.guard = None

    # --- the threaded state ---------------------------------------------------------------

    def state(self):
        return tuple(self._values[id(v)] for v in self.variables), self.key, self.error

    def set_state(self, state):
        values, self.key, self.error = state
        self._values = {id(v): value for v, value in zip(self.variables, values)}

    def read(self, var):
        return self._values[id(var)]

    def write(self, var, value):
        self._values[id(var)] = jnp.asarray(value, var.dtype.np_dtype)

    def next_key(self, op):
        if self.key is None:
            raise lowering_error(op, "random ops need a PRNG key (internal error)")
        self.key, sub = jax.random.split(self.key)
        return sub

    def set_range(self, value, lowest, highest):
        self._ranges[id(value)] = (value, lowest, highest)

    def value_range(self, value):
        """(lowest, highest) of the integer `value`'s elements, or None if unknown."""
        if is_known(value):
            return (value.min(), value.max()) if value.size else None
        entry = self._ranges.get(id(value))
        return None if entry is None else entry[1:]

    def check(self, op, ok, error_type, message):
        """Fail the call with `error_type(message)` unless all of `ok` (bools) holds."""
        if not isinstance(ok, jax.core.Tracer):
            if np.all(ok):
                return  # known to hold while tracing (a constant divisor, a static index)
            ok = np.False_
        if self.guard is not None:
            ok = jnp.all(ok) | ~self.guard
        self.checks.append((op, error_type, message))
        code = len(self.checks)
        self.error = jnp.where((self.error == 0) & ~jnp.all(ok), code, self.error)

    def check_reported(self, op, ok, error_type, message, render, *data):
        """`check`, failing with the message `render(*data)` computes on the host (the
        compiled function raises it with `error_type`, an InvalidArgumentError)."""
        count = len(self.checks)
        self.check(op, ok, error_type, message)
        if len(self.checks) == count:
            return  # known to hold while tracing
        code, messages = len(self.checks), self.assert_messages

        def record(*values):
            messages.put(code, render(*values))

        def report():
            jax.debug.callback(record, *data)

        failing = ~jnp.all(ok) if isinstance(ok, jax.core.Tracer) else True
        if self.guard is not None:  # the branch not taken reports nothing
            failing = self.guard & failing
        if failing is True:
            report()  # known to fail
        else:
            lax.cond(failing, report, lambda: None)


def is_known(value):
    """Whether `value` is known while tracing (a numpy array, not a JAX tracer)."""
    return isinstance(value, np.ndarray)


def static(op, value, what):
    """`value` as a numpy array, or a LoweringError: XLA needs `what` at compile time."""
    if is_known(value):
        return value
    raise lowering_error(op, f"{what} is computed at run time, but XLA needs it when "
                             "compiling (static shapes)")


def lower_graph(ctx, graph, inputs, outputs=None):
    outputs = graph.outputs if outputs is None else outputs
    env = {id(p): v for p, v in zip(graph.inputs, inputs)}
    for op in ops_reaching(outputs, graph.stateful_ops, env, control_inputs=True):
        values = [env[id(t)] for t in op.inputs]
        result = _lower_op(ctx, op, values)
        if len(op.outputs) == 1 and not isinstance(result, tuple):
            result = (result,)
        for t, value in zip(op.outputs, result):
            env[id(t)] = value
    return [env[id(t)] for t in outputs]


def _lower_op(ctx, op, values):
    opdef = op.opdef
    foldable = not opdef.stateful and not opdef.needs_context and all(map(is_known, values))
    try:
        if foldable:
            result = opdef.kernel(*values, **op.attrs)
            return tuple(map(np.asarray, result)) if isinstance(result, tuple) \
                else np.asarray(result)
        return rule_for(op)(ctx, op, *values)
    except LoweringError:
        raise
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as e:
        if hasattr(e, "op"):  # already names an op (a nested graph's)
            raise
        raise op_error(op, e) from e


def run_kernel_on_host(op, *arrays):
    """Run `op`'s numpy kernel (for rules that delegate formatting, like print)."""
    if op.opdef.needs_context:
        return op.opdef.kernel(EAGER_CONTEXT, *arrays, **op.attrs)
    return op.opdef.kernel(*arrays, **op.attrs)
