"""The parts of JAX that autograph_py reads and JAX does not publish, in one place.

JAX has no public API for these, so a JAX upgrade may move them; everything else in
autograph_py uses JAX's public API. Each reader falls back to the safe answer when its
part is missing (slower or less specialised, never wrong), and `missing()` lists what
this JAX version lacks, so a test fails loudly on the upgrade that moves one
(tests/xla/test_jax_internals.py). Nothing here imports jax until asked.

Contract:
- `trace_probe()`: a function of no arguments, true while a JAX trace (`jax.jit`,
  `jax.grad`, `jax.vmap`...) is active on this thread; asked on calls of converted
  functions once jax is imported (autograph_py/fast_path.py), so it must be cheap. It
  reads JAX's current trace (`jax._src.core.trace_ctx`); without it, true whenever the
  trace context is not at the top level, or always (converted code then runs on every
  call).
- `autodiff_active()`: a JAX autodiff trace (JVP or linearize: `jax.grad`, `jax.vjp`,
  `jax.jvp`, `jax.linearize`) encloses the current trace (its classes are told by the
  names in `AUTODIFF_TRACES`); true when this version does not let us tell.
- `LOOP_PRIMITIVES` and `calls_host(eqn)`: the names of the primitives that loop, and
  whether a jaxpr equation calls the host (a callback primitive, or any effect).
- `CALLBACK_LOGGERS`: the loggers on which JAX logs the exception a host callback raised
  (with its traceback, to stderr) before raising its own error.
- `varying_axes(value)`: the mesh axes along which a value inside `shard_map` may
  differ (JAX's "varying manual axes", `jax.typeof(value).manual_axis_type.varying`);
  empty outside `shard_map`, and empty when this version does not tell (then shard_map's
  own replication check still refuses a varying value where one value is needed).
- `missing()`: the names of the parts above that this JAX version does not have.
"""

import importlib

AUTODIFF_TRACES = ("JVPTrace", "LinearizeTrace")
LOOP_PRIMITIVES = ("while", "scan")
_HOST_CALL = "callback"  # in the name of every host-callback primitive
CALLBACK_LOGGERS = ("jax._src.debugging", "jax._src.callback")


def _core():
    from jax._src import core  # noqa: PLC0415  (private: imported when asked)

    return core


def trace_probe():
    try:
        core = _core()
        state, top = core.trace_state_strong_ref, core.eval_trace
        if state.value is core.trace_ctx.trace:  # what `trace_ctx.trace` reads
            return lambda: state.value is not top
        context = core.trace_ctx
        context.is_top_level()  # noqa: B018  (must work on this version)
        return lambda: not context.is_top_level()
    except (ImportError, AttributeError):
        return lambda: True


def autodiff_active():
    try:
        trace = _core().trace_ctx.trace
    except (ImportError, AttributeError):
        return True
    while trace is not None:
        if type(trace).__name__ in AUTODIFF_TRACES:
            return True
        trace = getattr(trace, "parent_trace", None)
    return False


def calls_host(eqn):
    return _HOST_CALL in eqn.primitive.name or bool(eqn.effects)


def varying_axes(value):
    import jax  # noqa: PLC0415  (asked only while lowering, when jax is loaded)

    manual = getattr(jax.typeof(value), "manual_axis_type", None)
    return getattr(manual, "varying", frozenset())


def missing():
    """What of the above this JAX version lacks (empty when all is where we look)."""
    lacks = []
    try:
        core = _core()
    except ImportError:
        return ["jax._src.core"]
    for name in ("trace_ctx", "trace_state_strong_ref", "eval_trace"):
        if not hasattr(core, name):
            lacks.append(f"jax._src.core.{name}")
    if hasattr(core, "trace_ctx") and not hasattr(core.trace_ctx, "trace"):
        lacks.append("jax._src.core.trace_ctx.trace")
    from jax._src.interpreters import ad  # noqa: PLC0415

    lacks += [f"jax._src.interpreters.ad.{name}" for name in AUTODIFF_TRACES
              if not hasattr(ad, name)]
    for name in CALLBACK_LOGGERS:
        try:
            logger = importlib.import_module(name).logger
        except (ImportError, AttributeError):
            logger = None
        if getattr(logger, "name", None) != name:
            lacks.append(f"{name}.logger")
    import jax  # noqa: PLC0415

    if not hasattr(jax.core.ShapedArray((), "float32"), "manual_axis_type"):
        lacks.append("jax.core.ShapedArray.manual_axis_type")
    from jax import lax  # noqa: PLC0415

    lacks += [f"the primitive {name!r}" for name, primitive in
              zip(LOOP_PRIMITIVES, (lax.while_p, lax.scan_p)) if primitive.name != name]
    return lacks
