"""XLA through JAX: lowering our graphs to pure JAX functions (`function(jit_compile=True)`).

Contract:
- `table` holds one lowering row per op name (`register_lowering("Add")`), kept beside the
  numpy kernels, never inside them: the numpy runtime never imports jax. Ops that cannot
  be compiled are listed in `table.UNLOWERABLE` with the reason; lowering one is a
  `LoweringError` naming the op and the user's file:line, never a silent fallback.
- `lowering.lower_graph(ctx, graph, inputs)` turns a graph into JAX values (run under a
  JAX trace); `compiled.CompiledGraph` wraps a traced function graph as one `jax.jit`
  function with Variables threaded in and out, a PRNG key carried, checks raised on return.
- `lax_control` builds `lax.cond` / `lax.while_loop` / `lax.scan` from Python closures over
  a carried state; it knows nothing of our graphs, so other staging backends reuse it.
- Only the modules of this package import jax, and only when `require_jax()` or a module
  other than `table` is imported: without the `[xla]` extra, `import autograph_py` works.
"""

EXTRA_HINT = 'install the [xla] extra: pip install "autograph_py[xla]" (jax and jaxlib)'


def require_jax():
    """The `jax` module, or an ImportError that says which extra to install."""
    try:
        import jax  # noqa: PLC0415  (optional dependency: imported only when compiling)
    except ImportError as e:
        raise ImportError(f"jit_compile=True needs JAX: {EXTRA_HINT}") from e
    return jax
