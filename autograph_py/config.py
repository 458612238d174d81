"""`ag.config`: process-wide defaults of `ag.function`.

Contract: `set_default_jit_compile(True)` makes every `ag.function` whose `jit_compile`
is None (the default) compile its traces made from then on with XLA; the environment
variable `AUTOGRAPH_JIT_COMPILE` (`1`/`true`/`yes`, read at import) sets the initial
default. `jit_compile_enabled(value)` resolves one function's setting, and
`require_xla()` raises the ImportError naming the `[xla]` extra when JAX is missing.
"""

import os

from autograph_py.runtime.xla import require_jax

_default_jit_compile = os.environ.get("AUTOGRAPH_JIT_COMPILE", "").strip().lower() in (
    "1", "true", "yes", "on")


def set_default_jit_compile(enabled):
    """Compile `ag.function`s that do not pass `jit_compile` (None) with XLA, or not."""
    global _default_jit_compile
    if enabled:
        require_xla()
    _default_jit_compile = bool(enabled)


def default_jit_compile():
    return _default_jit_compile


def jit_compile_enabled(value):
    """Whether a function with `jit_compile=value` compiles: the default when None."""
    return _default_jit_compile if value is None else bool(value)


def require_xla():
    require_jax()
