"""Python control flow for JAX users: `ag.jax.jit` and `ag.jax.grad`, and the staging row
that makes converted code lower to `lax` when it meets a JAX tracer.

Contract:
- Importing `autograph_py` registers the JAX row in the staging-backend table
  (runtime/operators/backends.py); the row claims values only once `jax` is imported by
  someone, and loads `autograph_py.runtime.xla.staging` (which imports jax) the first
  time it claims one. So the numpy runtime never needs JAX.
- `jit(fn, **jit_kwargs)` is `jax.jit(ag.to_graph(fn), **jit_kwargs)` (`static_argnums`,
  `static_argnames`, `donate_argnums`... passed through); `grad(fn, **grad_kwargs)` is
  `jax.grad(ag.to_graph(fn), ...)`. Both work as decorators, bare or with keywords.
  Without JAX installed they raise an ImportError naming the `[xla]` extra. A check that
  fails when the compiled program runs (a failed `assert`) raises the user's error
  itself, naming their file:line, in place of JAX's runtime error
  (runtime/xla/staging/host_failures.py).
"""

import functools as _functools
import sys as _sys

from autograph_py.conversion import to_graph
from autograph_py.runtime.operators import backends as _backends


def _may_claim(cls):
    if _backends.has_marker(cls, "jax"):
        return True
    jax = _sys.modules.get("jax")
    return jax is not None and issubclass(cls, jax.core.Tracer)


def _load():
    from autograph_py.runtime.xla.staging import JaxBackend  # noqa: PLC0415  (needs jax)

    return JaxBackend()


def register():
    _backends.register("jax", _may_claim, lambda value: True, _load)


def _require_jax():
    from autograph_py.runtime.xla import require_jax  # noqa: PLC0415  (optional extra)

    return require_jax()


def _transform(name, fn, kwargs):
    if fn is None:  # used as @ag.jax.jit(static_argnums=0)
        return _functools.partial(_transform, name, **{"kwargs": kwargs})
    transform = getattr(_require_jax(), name)
    from autograph_py.runtime.xla.staging import host_failures  # noqa: PLC0415  (needs jax)

    # jax.jit/grad keep fn's name and docs, and Reraising keeps theirs.
    return host_failures.Reraising(transform(to_graph(fn), **kwargs))


def jit(fn=None, **jit_kwargs):
    """`jax.jit` of the converted `fn`: plain `if`/`while`/`for` on traced values work."""
    return _transform("jit", fn, jit_kwargs)


def grad(fn=None, **grad_kwargs):
    """`jax.grad` of the converted `fn` (loops with a static trip count differentiate)."""
    return _transform("grad", fn, grad_kwargs)
