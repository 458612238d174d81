"""Whether the code being traced is being differentiated, to pick a loop's lowering.

Contract: `active()` is True when a JAX autodiff trace (JVP or linearize: `jax.grad`,
`jax.vjp`, `jax.jvp`, `jax.linearize`) encloses the current trace, and also when this
JAX version does not let us tell (so loops stay differentiable). A loop that may stop
early (a `break` or `return` under a traced `if`) with a static bound is then a bounded
`lax.scan`, which reverse mode can differentiate; otherwise a `lax.while_loop`, which
stops as soon as the test fails (the speed of a hand-written one). `jax.grad` of a
function already compiled by `jax.jit` reuses the jit's trace, made without autodiff:
differentiate first (`jax.jit(jax.grad(f))`, what `ag.jax.grad` gives under `jax.jit`).
"""

from autograph_py.runtime.xla.jax_internals import autodiff_active


def active():
    return autodiff_active()
