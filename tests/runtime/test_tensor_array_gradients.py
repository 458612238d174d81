"""Gradients through TensorArray write/read/stack/unstack/gather/scatter, eagerly (tape),
in graphs (gradients() + Session) and through a staged loop in ag.function, each checked
against central finite differences in float64."""

import numpy as np
import pytest
from autograph_py.runtime.gradients.checker import (
    graph_gradients,
    numerical_gradients,
    tape_gradients,
)

import autograph_py as ag


def write_read_stack(x):
    ta = ag.TensorArray(ag.float64, size=3)
    for i in range(3):
        ta = ta.write(i, x[i] * x[(i + 1) % 3])
    ta = ta.write(1, ag.tanh(x[1]))  # overwrites: the first value at 1 gets no gradient
    return ag.reduce_sum(ta.stack() * ta.stack()) + 3.0 * ta.read(2)


def unstack_gather(x):
    ta = ag.TensorArray(ag.float64, size=0, dynamic_size=True).unstack(x * x)
    return ta.gather([2, 0]) * ta.read(1)


def scatter_concat(x):
    ta = ag.TensorArray(ag.float64, size=4, element_shape=[2]).scatter([3, 1], x)
    return ag.tanh(ta.concat())


CASES = [(write_read_stack, np.array([0.3, -1.2, 0.8])),
         (unstack_gather, np.array([[0.5, -0.2], [1.1, 0.4], [-0.9, 0.7]])),
         (scatter_concat, np.array([[0.5, -0.2], [1.1, 0.4]]))]


@pytest.mark.parametrize("how", [tape_gradients, graph_gradients])
@pytest.mark.parametrize("fn, x", CASES, ids=[c[0].__name__ for c in CASES])
def test_gradients_match_finite_differences(how, fn, x):
    grad_y = np.random.default_rng(1).normal(size=np.shape(fn(ag.constant(x))))
    expected, = numerical_gradients(fn, [x], grad_y)
    computed, = how(fn, [x], grad_y)
    np.testing.assert_allclose(computed, expected, rtol=1e-6, atol=1e-8)


def staged_products(x):
    ta = ag.TensorArray(ag.float64, size=0, dynamic_size=True)
    acc = ag.constant(1.0, ag.float64)
    for i in ag.range(ag.shape(x)[0]):
        acc = acc * x[i]
        ta = ta.write(i, acc)
    return ag.reduce_sum(ta.stack())


def test_gradient_through_a_staged_loop_in_a_function():
    x = np.array([0.7, -1.3, 0.9, 1.1])

    @ag.function
    def grad(x):
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = staged_products(x)
        return tape.gradient(y, x)

    expected, = numerical_gradients(ag.to_graph(staged_products), [x], 1.0)
    np.testing.assert_allclose(grad(ag.constant(x)).numpy(), expected, rtol=1e-6)
