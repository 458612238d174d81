"""A GradientTape around a compiled call (runtime/xla/pullback.py): the forward call also
prepares the backward (the gradient of a scalar output, else `jax.vjp`'s residuals), and
the tape's gradient is what the numpy runtime's tape gives (the oracle: the same
function through `ag.function` without jit_compile), None where it gives None."""

import numpy as np
import pytest
from autograph_py.runtime.xla import pullback
from autograph_py.runtime.xla.compiled import CompiledGraph

import autograph_py as ag

RNG = np.random.default_rng(7)
W = ag.Variable(RNG.normal(size=(3, 2)))
UNUSED = ag.Variable(RNG.normal(size=(2,)))  # read, but no gradient reaches it
X = ag.constant(RNG.normal(size=(4, 3)))


def loss(x):
    return ag.reduce_sum(ag.tanh(ag.matmul(x, W)) ** 2)


def vector(x):
    return ag.reduce_sum(ag.tanh(ag.matmul(x, W)), axis=1)


def rows_loss(x):
    s = ag.constant(0.0, ag.float64)
    for row in x:  # a counted loop (a lax.fori_loop): JAX's reverse mode differentiates it
        s += ag.reduce_sum(ag.tanh(ag.matmul(ag.reshape(row, (1, 3)), W)))
    return s


def loss_and_count(x):
    y = ag.matmul(x, W)
    gate = ag.cast(ag.cast(UNUSED > 0.0, ag.int32), ag.float64)  # no gradient: int path
    return ag.reduce_mean(y * y) * ag.reduce_sum(gate), ag.reduce_sum(ag.cast(y > 0, ag.int32))


def gradients(fn, jit, target=lambda y: y, watch_x=True, sources=lambda x: [x, W],
              **options):
    f = ag.function(fn, jit_compile=jit)
    with ag.GradientTape(**options) as tape:
        if watch_x:
            tape.watch(X)
        y = f(X)
        t = target(y)
    found = tape.gradient(t, sources(X))
    again = tape.gradient(t, sources(X)) if options.get("persistent") else found
    return [None if g is None else g.numpy() for g in found + again]


def assert_same(expected, actual):
    assert [g is None for g in actual] == [g is None for g in expected]
    for e, a in zip(expected, actual):
        if e is not None:
            np.testing.assert_allclose(a, e, rtol=1e-10, atol=1e-12)


CASES = {
    "scalar loss": dict(fn=loss),
    "scaled downstream": dict(fn=loss, target=lambda y: 3.0 * y + 1.0),
    "vector output": dict(fn=vector, target=lambda y: ag.reduce_sum(y * y)),
    "a counted loop": dict(fn=rows_loss),
    "input not watched": dict(fn=loss, watch_x=False),  # the rule still gives its gradient
    "persistent tape": dict(fn=loss, persistent=True),
    "an int output and an unconnected Variable": dict(
        fn=loss_and_count, target=lambda y: y[0], sources=lambda x: [x, W, UNUSED]),
}


@pytest.mark.parametrize("case", CASES.values(), ids=list(CASES))
def test_recorded_call_gradients_are_the_numpy_runtimes(case):
    assert_same(gradients(jit=False, **case), gradients(jit=True, **case))


@pytest.mark.parametrize("fn", [loss, rows_loss])
def test_a_scalar_loss_takes_one_compiled_call_and_no_gradient_graph(monkeypatch, fn):
    calls = []
    original = CompiledGraph.run
    monkeypatch.setattr(CompiledGraph, "run", lambda self, arrays, ctx=None:
                        calls.append(self.graph) or original(self, arrays, ctx))
    answered = []  # by the prepared gradients: through the engine, or directly
    for name in ("backward", "direct"):
        method = getattr(pullback.RecordedCall, name)
        monkeypatch.setattr(pullback.RecordedCall, name,
                            lambda *a, _name=name, _method=method:
                            answered.append(_name) or _method(*a))
    assert_same(gradients(fn, False), gradients(fn, True))
    assert calls == [] and len(answered) == 1  # the forward ran as a recorded call


def test_second_derivatives_through_a_recorded_call():
    def exp_times(x):
        return ag.reduce_sum(ag.exp(x) * x)

    def second(jit):
        f = ag.function(exp_times, jit_compile=jit)
        x = ag.constant([0.3, -1.2, 2.0], ag.float64)
        with ag.GradientTape() as outer:
            outer.watch(x)
            with ag.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        return [g.numpy(), outer.gradient(g, x).numpy()]

    assert_same(second(False), second(True))


def test_a_variable_assigned_after_the_call_does_not_change_its_gradient():
    # The gradient is at the values the call read, as eager ops on a tape give it (the
    # oracle here; the numpy runtime's Call rule recomputes with the current value).
    v = ag.Variable(2.0)

    def f(x):
        return x * v * v

    def gradient(fn):
        v.assign(2.0)
        with ag.GradientTape() as tape:
            y = fn(ag.constant(3.0))
        v.assign(5.0)
        return tape.gradient(y, v).numpy()

    assert gradient(ag.function(f, jit_compile=True)) == gradient(f) == 2 * 3.0 * 2.0


def test_the_forward_prepares_only_the_gradients_a_tape_follows():
    # An unwatched input (a batch) gets no gradient in the forward call; asked for
    # anyway, it costs one more compiled call and is still the numpy runtime's.
    f = ag.function(loss, jit_compile=True)
    with ag.GradientTape() as tape:
        y = f(X)
    (record,) = tape._nodes
    holder = record.attrs["residuals"]
    assert holder.slots == (1,)  # W only: slot 0 is X
    found = [g.numpy() for g in tape.gradient(y, [X, W])]
    assert_same(gradients(loss, False, watch_x=False), found + found)


def pair_loss(a, b):
    return ag.reduce_sum(ag.tanh(ag.matmul(a, W)) * ag.matmul(b, W))


# A tape holding the call alone gets the prepared gradients directly (no engine) when
# every source is one the call prepared a gradient for; otherwise the engine answers.
DIRECT = {
    "Variables only": dict(fn=loss, sources=lambda x: [W], direct=True),
    "the input and a Variable": dict(fn=loss, direct=True),
    "a source listed twice": dict(fn=loss, sources=lambda x: [W, x, W], direct=True),
    "a Variable the call never reads": dict(fn=loss, sources=lambda x: [W, UNUSED]),
    "the target among the sources": dict(fn=loss, target=lambda y: y,
                                         sources=lambda x: [W], direct=True),
}


@pytest.mark.parametrize("case", DIRECT.values(), ids=list(DIRECT))
def test_a_lone_call_answers_directly_as_the_engine_would(case, monkeypatch):
    case = dict(case)
    direct = case.pop("direct", False)
    expected = gradients(jit=False, **case)
    answered = []
    original = pullback.RecordedCall.direct
    monkeypatch.setattr(pullback.RecordedCall, "direct", lambda *a: answered.append(
        original(*a)) or answered[-1])
    assert_same(expected, gradients(jit=True, **case))
    assert (answered[-1] is not None) == direct


def test_the_same_tensor_passed_twice_adds_its_gradients():
    def grads(jit):
        f = ag.function(pair_loss, jit_compile=jit)
        with ag.GradientTape() as tape:
            tape.watch(X)
            y = f(X, X)
        return [g.numpy() for g in tape.gradient(y, [X, W])]

    assert_same(grads(False), grads(True))
    with ag.GradientTape() as tape:  # the oracle of the oracle: both slots, summed
        tape.watch(X)
        y = pair_loss(X, X)
    np.testing.assert_allclose(grads(True)[0], tape.gradient(y, X).numpy(), rtol=1e-10)
