"""Repros a gradient review found (each a test where the oracle is the same computation
run eagerly under a tape, as TensorFlow runs it): iterating an eager tensor under a tape
records the rows; an op that fails inside a recorded call keeps its error; a second
derivative through a staged loop is an error, not a silent None."""

import numpy as np
import pytest

import autograph_py as ag


def test_iterating_an_eager_tensor_under_a_tape_records_the_rows():
    x = ag.constant([1.0, 2.0, 3.0], ag.float64)
    with ag.GradientTape() as tape:
        tape.watch(x)
        s = ag.constant(0.0, ag.float64)
        for e in x:
            s = s + e * e
    np.testing.assert_allclose(tape.gradient(s, x).numpy(), 2 * x.numpy())


def test_a_failing_op_inside_a_recorded_call_keeps_its_error():
    @ag.function
    def f(x, i):
        return ag.gather(x, i) * 2.0

    x, i = ag.constant([1.0, 2.0]), ag.constant([5])
    with pytest.raises(IndexError, match="GatherV2"):
        f(x, i)
    with ag.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(IndexError, match="GatherV2"):
            f(x, i)


def test_a_second_derivative_through_a_staged_loop_is_an_error_not_none():
    def f(x, n):
        s = x
        i = 0
        while i < n:
            s = s * x
            i += 1
        return ag.reduce_sum(s)

    x, n = ag.constant([0.5, -0.2], ag.float64), ag.constant(2)
    with ag.GradientTape() as outer:
        outer.watch(x)
        with ag.GradientTape() as inner:
            inner.watch(x)
            y = ag.function(f)(x, n)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy() ** 2)  # first derivative: fine
    with pytest.raises(NotImplementedError, match="second derivatives through a staged"):
        outer.gradient(g, x)


def _loss(w, x):
    return ag.reduce_sum(ag.tanh(x * w) ** 2)


@pytest.mark.parametrize("mode", ["eager", "function", "jit_compile"])
def test_a_variable_listed_twice_among_the_sources_gets_its_gradient_twice(mode):
    # It used to get None the first time (the engine kept one slot per Variable, the
    # last); TensorFlow answers every entry.
    w = ag.Variable([0.5, -1.0], dtype=ag.float64)
    x = ag.constant([2.0, 3.0], ag.float64)
    with ag.GradientTape() as tape:
        y = _loss(w, x)
    expected = tape.gradient(y, w).numpy()  # the oracle: the Variable listed once

    def step(x):
        with ag.GradientTape() as tape:
            y = _loss(w, x)
        return tape.gradient(y, [w, w])

    if mode == "eager":
        found = step(x)
    else:
        found = ag.function(step, jit_compile=mode == "jit_compile")(x)
    for g in found:
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("jit_compile", [False, True])
def test_a_source_a_function_reads_from_an_enclosing_scope_is_an_error_not_a_wrong_gradient(
        jit_compile):
    # The traced function holds `x` as a constant, so no gradient flows to it through
    # the call: the tape used to answer the argument's part alone ([1, 2, 3], where
    # eager ops and TensorFlow give [2, 4, 6]). Now a clear error says what to do.
    x = ag.constant([1.0, 2.0, 3.0])
    f = ag.function(lambda y: ag.reduce_sum(x * y), jit_compile=jit_compile)
    with ag.GradientTape() as tape:
        tape.watch(x)
        out = f(x)
    with pytest.raises(ValueError, match="without being passed to it.*as an argument"):
        tape.gradient(out, [x])

    # Passed as an argument, it gets the gradient eager ops give (the oracle).
    g = ag.function(lambda y, c: ag.reduce_sum(c * y), jit_compile=jit_compile)
    with ag.GradientTape(persistent=True) as tape:
        tape.watch(x)
        staged = g(x, x)
        eager = ag.reduce_sum(x * x)
    np.testing.assert_allclose(tape.gradient(staged, x).numpy(),
                               tape.gradient(eager, x).numpy())
    # A source the function does not embed is answered as before.
    w = ag.constant([1.0, 1.0, 1.0])
    with ag.GradientTape() as tape:
        tape.watch(w)
        out = f(w)
    np.testing.assert_allclose(tape.gradient(out, w).numpy(), x.numpy())


def test_a_gradient_with_respect_to_a_tensor_array_prints():
    # Rebuilt from its components' gradients, it has no `written` flags (bool: no
    # gradient); its repr used to fail on them.
    x = ag.constant([1.0, 2.0, 3.0])
    with ag.GradientTape() as tape:
        tape.watch(x)
        ta = ag.TensorArray(ag.float32, size=3)
        for i in range(3):
            ta = ta.write(i, x[i] * 2.0)
        y = ag.reduce_sum(ta.stack() * x)
    ta_grad, x_grad = tape.gradient(y, [ta, x])
    assert repr(ta_grad) == "TensorArray(dtype=float32, size=3, element_shape=())"
    np.testing.assert_allclose(x_grad.numpy(), 4 * x.numpy())  # d(2 x . x)/dx
