"""The private parts of JAX autograph_py reads (runtime/xla/jax_internals.py): all present
on the installed JAX (this fails loudly on an upgrade that moves one), and each answers
as JAX's public behaviour says it should."""

import threading

import jax
import jax.numpy as jnp
from autograph_py.runtime.xla import jax_internals
from autograph_py.runtime.xla.staging import guards


def test_every_private_part_is_where_we_look():
    assert jax_internals.missing() == []


def test_the_trace_probe_sees_jit_grad_and_vmap():
    probe = jax_internals.trace_probe()
    seen = []

    def record(x):
        seen.append(probe())
        return x * 2

    assert not probe()
    jax.jit(record)(1.0)
    jax.grad(record)(1.0)
    jax.vmap(record)(jnp.ones(2))
    assert seen == [True, True, True] and not probe()


def test_autodiff_is_told_from_a_plain_trace():
    seen = []

    def record(x):
        seen.append(jax_internals.autodiff_active())
        return x * 2

    jax.jit(record)(1.0)
    jax.grad(record)(1.0)
    assert seen == [False, True]


def test_loops_and_host_calls_are_found_by_primitive():
    def loops(x):
        return jax.lax.fori_loop(0, 3, lambda i, v: v + i, x)

    def prints(x):
        jax.debug.print("{}", x)
        return x

    eqns = jax.make_jaxpr(loops)(1).jaxpr.eqns
    assert any(e.primitive.name in jax_internals.LOOP_PRIMITIVES for e in eqns)
    assert any(jax_internals.calls_host(e) for e in jax.make_jaxpr(prints)(1.0).jaxpr.eqns)
    assert not any(jax_internals.calls_host(e) for e in eqns)


def test_a_guard_is_this_threads_own():
    seen = []
    with guards._holding("guard"):
        thread = threading.Thread(target=lambda: seen.append(guards.take()))
        thread.start()
        thread.join()
        assert guards.take() == "guard"
    assert seen == [None] and guards.take() is None
