"""JAX tracers as a staging backend (runtime/operators/backends.py): Python control flow
over traced values under `jax.jit`, `jax.grad`, `jax.vmap`, lowered to `lax`.

Contract: `JaxBackend` implements `backends.StagingBackend` for values that are JAX
tracers (and the JAX stand-ins of iterables.py); concrete JAX arrays outside a trace are
Python values and never reach it. What lowers to what:
- `if` → `lax.cond` (branches.py); a ternary, `and`, `or` → `lax.cond` on their value;
  `not` → `jnp.logical_not`; `x in a` → `jnp.any(a == x)`.
- `while` → `lax.while_loop`, or a bounded `lax.scan` under `maximum_iterations`; `for`
  over an array's rows, or `enumerate`/`zip` of arrays → `lax.scan` (each step guarded,
  guards.py, when a `break`/`return` may stop it); `for` over `range` with a traced bound →
  `lax.while_loop` (loops.py). So `jax.grad` works through every loop with a static trip
  count.
- `assert` on a traced value → a host callback that raises when the program runs, with
  the message and the user's file:line (host_failures.py: JAX's runtime error carrying
  it, or under `ag.jax.jit` / `ag.jax.grad` the AssertionError itself; nothing is
  logged to stderr).
- builtins: `range`/`enumerate`/`zip` with traced arguments → the lazy objects of
  iterables.py; `len` of a traced range; `int`/`float` → `astype(int32/float32)`;
  `min`/`max` → `jnp.minimum`/`jnp.maximum` (of one array: over its first axis); `sum` →
  `jnp.sum` over the first axis; `bool` → the truth as a bool array. `abs` and `len` of
  an array are JAX's own.
The errors are our staging's, naming the user's variable (docs/jax.md lists them).
"""

import builtins

import jax
import jax.numpy as jnp
from autograph_py.runtime.operators import overload_factories, staging
from autograph_py.runtime.ops.check_ops import failure_message
from autograph_py.runtime.xla.staging import branches, host_failures, iterables, values
from autograph_py.runtime.xla.staging.adapter import STAGING


def _len(value):
    return value.size() if isinstance(value, iterables.Range) else builtins.len(value)


def _bool(value):
    return values.truth(value, "bool()")


_OVERLOADS = {
    "len": _len, "range": iterables.Range, "enumerate": iterables.Enumerate,
    "zip": iterables.Zip,
    "int": overload_factories.cast(builtins.int, lambda x: jnp.asarray(x).astype(jnp.int32)),
    "float": overload_factories.cast(builtins.float,
                                     lambda x: jnp.asarray(x).astype(jnp.float32)),
    "min": overload_factories.extreme(lambda x, axis: jnp.min(jnp.asarray(x), axis=axis),
                                      jnp.minimum),
    "max": overload_factories.extreme(lambda x, axis: jnp.max(jnp.asarray(x), axis=axis),
                                      jnp.maximum),
    "sum": overload_factories.first_axis_sum(
        lambda x, axis: jnp.sum(jnp.asarray(x), axis=axis)),
    "bool": _bool,
}


host_failures.quiet_callback_logs()


class JaxBackend(staging.Statements):
    name = "jax"
    adapter = STAGING

    def truth(self, value):
        return values.truth(value)

    def not_(self, value):
        return jnp.logical_not(values.truth(value, "the operand of `not`"))

    def iterable(self, value):
        return iterables.as_iterable(value)

    def stack(self, items):
        if all(type(item) is int for item in items):  # the rest of a `range`, say
            return iterables.stacked(items)
        return jnp.stack([jnp.asarray(item) for item in items])

    def cond(self, pred, true_fn, false_fn, names):
        return branches.cond_value(pred, true_fn, false_fn, names)

    def contains(self, container, item):
        return jnp.any(jnp.asarray(container) == item)

    def assert_(self, test, message):
        message = host_failures.located(failure_message(message), "assert")

        def check(ok):
            if not ok:
                host_failures.fail(AssertionError(message))

        # Ordered: with an unordered callback in a branch, jax 0.10.2 on CPU can return the
        # wrong parameter from the function (a branch's inner lax.cond result instead).
        jax.debug.callback(check, values.truth(test, "an `assert`"), ordered=True)

    def builtin(self, name):
        return _OVERLOADS.get(name)
