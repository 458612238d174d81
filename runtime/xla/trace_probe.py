"""Whether a JAX trace is active on this thread, asked on every call of a converted
function once jax is imported (autograph_py/fast_path.py): it must be cheap.

Contract: `make_probe()` (called only once `jax` is imported) returns a function of no
arguments, true while a JAX trace (`jax.jit`, `jax.grad`, `jax.vmap`...) is active on
this thread. It reads JAX's current trace (no public API tells it); on a JAX version
where that is not where this module looks, the probe says true whenever the trace
context is not at the top level, or always (converted code then runs on every call:
slower, never wrong).
"""


def make_probe():
    try:
        from jax._src import core  # noqa: PLC0415  (no public API tells the trace stack)

        state, top = core.trace_state_strong_ref, core.eval_trace
        if state.value is core.trace_ctx.trace:  # what `trace_ctx.trace` reads
            return lambda: state.value is not top
        context = core.trace_ctx
        context.is_top_level()  # noqa: B018  (must work on this version)
        return lambda: not context.is_top_level()
    except (ImportError, AttributeError):
        return lambda: True
