"""Gradients through `ag.function(jit_compile=True)` (issue 13): a GradientTape around a
compiled call differentiates it (the backward pass is compiled too), checked against
central finite differences of the same function, in float64."""

import numpy as np
import pytest
from autograph_py.runtime.xla import gradient_rules
from autograph_py.runtime.xla.compiled import CompiledGraph

import autograph_py as ag


def while_loop(x, n):
    i = 0
    while i < n:
        x = x * 1.5 + ag.tanh(x)
        i += 1
    return x


def if_else(x):
    if x > 1.0:
        y = x * x * x
    else:
        y = ag.exp(x) - x
    return y


def for_with_break(x):
    s = x
    for _ in range(6):
        s = s * x
        if s > 3.0:
            break
    return s


def while_with_break(x, n):
    s = x
    i = 0
    while i < n:
        s = ag.sigmoid(s) * 3.0 + x
        if s > 3.5:
            break
        i += 1
    return s


def _finite_difference(fn, args, eps=1e-6):
    x = float(args[0].numpy())

    def at(value):
        return float(fn(ag.constant(value, ag.float64), *args[1:]).numpy())

    return (at(x + eps) - at(x - eps)) / (2 * eps)


CASES = [
    (while_loop, (0.3, 3)), (while_loop, (-0.2, 0)),
    (if_else, (1.7,)), (if_else, (0.4,)),
    (for_with_break, (1.1,)), (for_with_break, (2.5,)),
    (while_with_break, (0.5, 5)), (while_with_break, (-2.0, 4)),
]


@pytest.mark.parametrize("fn, values", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                    enumerate(CASES)])
def test_gradient_matches_finite_differences(fn, values):
    compiled = ag.function(fn, jit_compile=True)
    args = [ag.constant(values[0], ag.float64), *(ag.constant(v) for v in values[1:])]
    with ag.GradientTape() as tape:
        tape.watch(args[0])
        y = compiled(*args)
    grad = tape.gradient(y, args[0]).numpy()
    np.testing.assert_allclose(grad, _finite_difference(compiled, args), rtol=1e-5)
    # The value itself is the numpy runtime's.
    np.testing.assert_allclose(y.numpy(), ag.function(fn)(*args).numpy(), rtol=1e-12)


def test_mlp_forward_and_backward_match_finite_differences():
    rng = np.random.default_rng(0)
    w1 = ag.Variable(rng.normal(size=(4, 8)))
    w2 = ag.Variable(rng.normal(size=(8, 1)))
    x = ag.constant(rng.normal(size=(5, 4)))

    @ag.function(jit_compile=True)
    def loss(x):
        h = ag.nn.relu(ag.matmul(x, w1))
        return ag.reduce_mean(ag.square(ag.matmul(h, w2)))

    with ag.GradientTape() as tape:
        value = loss(x)
    g1, g2 = tape.gradient(value, [w1, w2])
    for var, grad in ((w1, g1), (w2, g2)):
        base = var.numpy()
        expected = np.zeros_like(base)
        for index in np.ndindex(base.shape):
            for sign in (1, -1):
                shifted = base.copy()
                shifted[index] += sign * 1e-6
                var.assign(shifted)
                expected[index] += sign * float(loss(x).numpy()) / 2e-6
            var.assign(base)
        np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-4, atol=1e-7)


def test_the_backward_pass_is_compiled(monkeypatch):
    runs = []
    original = CompiledGraph.run
    monkeypatch.setattr(CompiledGraph, "run", lambda self, arrays, ctx=None:
                        runs.append(self.graph) or original(self, arrays, ctx))
    compiled = ag.function(while_loop, jit_compile=True)
    x = ag.constant(0.3, ag.float64)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = compiled(x, ag.constant(2))
    tape.gradient(y, x)
    forward, backward = runs
    assert backward is not forward and backward.name.endswith("_grad")


def test_a_loop_longer_than_the_history_recomputes_its_iterations(monkeypatch):
    # Past the history's capacity, the variables of each iteration are recomputed from
    # the loop's start: the gradient is the same.
    monkeypatch.setattr(gradient_rules, "HISTORY_MAX_ITERATIONS", 2)
    test_gradient_matches_finite_differences(while_loop, (0.3, 5))
