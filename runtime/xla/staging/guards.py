"""A bounded loop's step guard folded into the `if` its body starts with: one `lax.switch`
per step instead of a `lax.cond` (the step) around a `lax.cond` (the body's `if`).

Contract:
- `bounded_scan(test_fn, body_fn, carry, length)`: what `lax_control.while_loop` does with
  a static bound (a `lax.scan` of `length` steps, each running `body_fn` only while
  `test_fn` holds, so reverse mode differentiates it), the same values and gradients.
  When the body qualifies (below), a step runs the body unguarded with its guard `go`
  held here: a staged `if` at the body's top level (`take()` gives it the guard) is one
  `lax.switch` over (its two branches, zeros when `go` is false), and the step's results
  are `select(go, new, old)`. Else each step is `lax.cond(go, body_fn, identity)`.
- A body qualifies when every operation outside its guarded `if`s makes only integers or
  booleans (the loop's counters, flags and conditions) and nothing anywhere in it calls
  the host (an `assert`, a checked read) or loops: such operations may run after the loop
  stopped without raising, hanging or feeding a float. Why floats matter: a float
  computed in a step that a stopped loop discards still gets a zero cotangent in reverse
  mode, and zero times an infinite derivative (the `log` of a value the loop guarded
  against) is NaN. Integer and boolean values have no tangents, and a guarded `if`'s
  skipped branches get no cotangent at all. Deciding traces the step once more (its
  Python side effects run again while tracing, as a probe iteration's do).
- `take()` is the guard for a staged `if` running at the top level of a qualifying body,
  else None; `suspended()` hides the guard while a branch, a conditional value or another
  loop traces its own code.
"""

import contextlib
import threading

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.xla import lax_control
from autograph_py.runtime.xla.jax_internals import LOOP_PRIMITIVES, calls_host
from jax import lax

_SCOPE = "autograph_guarded_step"  # the name scope marking what the guard protects


class _Guards(threading.local):
    """This thread's guards: the innermost guarded step's, or None where it does not
    apply (two threads tracing at once each have their own)."""

    def __init__(self):
        self.stack = []


_guards = _Guards()


def take():
    stack = _guards.stack
    return stack[-1] if stack else None


@contextlib.contextmanager
def _holding(guard):
    _guards.stack.append(guard)
    try:
        yield
    finally:
        _guards.stack.pop()


def suspended():
    return _holding(None)


def guarded(fn, *args):
    """`fn(*args)` marked as guarded (its operations need not pass `_qualifies`)."""
    with jax.named_scope(_SCOPE), suspended():
        return fn(*args)


def bounded_scan(test_fn, body_fn, carry, length):
    carry = lax_control.as_arrays(carry)
    body = lax_control.checked_body(body_fn)

    def folded(carry):
        go = test_fn(carry)
        with _holding(go):
            after = body(carry)
        return guarded(jax.tree_util.tree_map,
                       lambda new, old: lax.select(go, new, old), after, carry)

    def wrapped(carry):
        return lax.cond(test_fn(carry), body, lambda c: c, carry)

    specs = jax.tree_util.tree_map(lambda v: jax.ShapeDtypeStruct(v.shape, v.dtype), carry)
    step_fn = folded if _qualifies(jax.make_jaxpr(folded)(specs).jaxpr) else wrapped
    with suspended():
        return lax.scan(lambda c, _: (step_fn(c), None), carry, None, length=int(length))[0]


def _qualifies(jaxpr):
    for eqn in jaxpr.eqns:
        if _SCOPE in str(eqn.source_info.name_stack):
            if _calls_host(eqn):
                return False
            continue
        if _calls_host(eqn) or _loops(eqn) or any(
                jnp.issubdtype(v.aval.dtype, np.inexact) for v in eqn.outvars):
            return False
    return True


def may_run_when_stopped(jaxpr):
    """Whether a branch traced to `jaxpr` may run in a stopped step: no loop (it could
    spin on the stopped state) and no host call (an assert could fail)."""
    return not any(_loops(eqn) or _calls_host(eqn) for eqn in jaxpr.eqns)


def _subjaxprs(eqn):
    for param in eqn.params.values():
        for value in param if isinstance(param, (tuple, list)) else (param,):
            inner = getattr(value, "jaxpr", value)
            if hasattr(inner, "eqns"):
                yield inner


def _any_eqn(eqn, predicate):
    return predicate(eqn) or any(_any_eqn(inner_eqn, predicate)
                                 for inner in _subjaxprs(eqn) for inner_eqn in inner.eqns)


def _calls_host(eqn):
    return _any_eqn(eqn, calls_host)


def _loops(eqn):
    return _any_eqn(eqn, lambda e: e.primitive.name in LOOP_PRIMITIVES)


def switch_index(go, pred):
    """0 (the true branch), 1 (the false branch) or 2 (the guard's zeros) as an int32."""
    true, false, stopped = (np.int32(i) for i in range(3))
    return lax.select(go, lax.select(jnp.asarray(pred, bool), true, false), stopped)
