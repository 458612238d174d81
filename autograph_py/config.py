"""`ag.config`: process-wide defaults of `ag.function`.

Contract: `set_default_jit_compile(True)` makes every `ag.function` whose `jit_compile`
is None (the default) compile its traces made from then on with XLA; the environment
variable `AUTOGRAPH_JIT_COMPILE` (`1`/`true`/`yes`, read at import) sets the initial
default. `jit_compile_enabled(value)` resolves one function's setting, and
`require_xla()` raises the ImportError naming the `[xla]` extra when JAX is missing.

Eager debugging (TensorFlow's `tf.config.run_functions_eagerly`): while
`run_functions_eagerly(True)` is on, every `ag.function` called while no graph is being
built runs its Python function as written on each call (no conversion, no tracing, no
cache; `print` and breakpoints work); `functions_run_eagerly()` reads the switch. One
switch for the process, as in TensorFlow, not one per thread.

The fast path: `fast_path_enabled()` says whether a converted function whose call stages
nothing runs the function as written (`autograph_py.fast_path`); the environment variable
`AUTOGRAPH_FAST_PATH` (`0`/`false`/`no`/`off`, read at import) turns it off, and so does
`set_fast_path(False)`: every call then takes the converted path.
"""

import os as _os
import sys as _sys
import types as _types

from autograph_py.runtime.context import forget_idle_plain
from autograph_py.runtime.xla import require_jax

_default_jit_compile = _os.environ.get("AUTOGRAPH_JIT_COMPILE", "").strip().lower() in (
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


# Read by Function.__call__ on every call; a bool is read and written atomically.
_run_functions_eagerly = False


def run_functions_eagerly(run_eagerly):
    """Run every `ag.function` as the Python function it wraps (True) or traced into
    graphs (False, the default), as TensorFlow's `tf.config.run_functions_eagerly`."""
    global _run_functions_eagerly
    _run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    """Whether `ag.function`s run eagerly (`run_functions_eagerly`)."""
    return _run_functions_eagerly


# TensorFlow's older (deprecated) spellings of the two.
experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly


# The fast path (DESIGN.md §5, docs/function.md): a converted function whose call stages
# nothing runs the function as written. `fast_path.stages` reads this flag on every call.
_fast_path = _os.environ.get("AUTOGRAPH_FAST_PATH", "1").strip().lower() not in (
    "0", "false", "no", "off")


def fast_path_enabled():
    """Whether converted functions run as written when their call stages nothing."""
    return _fast_path


def set_fast_path(enabled):
    """Turn the fast path on or off for the whole process (tests force the converted
    path with `set_fast_path(False)`, or `monkeypatch.setattr(ag.config, "_fast_path",
    False)`); returns the previous setting."""
    global _fast_path
    previous, _fast_path = _fast_path, bool(enabled)
    if not _fast_path:
        forget_idle_plain()
    return previous


class _Config(_types.ModuleType):
    """This module's type: setting `_fast_path` from outside (monkeypatch) turns the fast
    path off as `set_fast_path` does, including the types the first line of a converted
    module's function takes as plain (`runtime.context.idle_plain`)."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name == "_fast_path" and not value:
            forget_idle_plain()


_sys.modules[__name__].__class__ = _Config
