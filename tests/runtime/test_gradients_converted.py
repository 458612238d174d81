"""Gradients of converted Python control flow (`to_graph`, `function`): an `if` on a
tensor, a `while` that runs a data-dependent number of times, a `for` over a tensor with
`break`, checked by central finite differences in float64; and a training step written
with a tape inside `@ag.function`."""

import numpy as np
import pytest
from autograph_py.runtime.gradients.checker import graph_gradients, numerical_gradients

import autograph_py as ag


def if_on_a_tensor(x, y):
    if ag.reduce_sum(x) > 0:
        z = x * x * y
    else:
        z = ag.exp(x) - y
    return z


def data_dependent_while(x, y):
    z = x
    while ag.reduce_sum(z * z) < 50.0:
        z = z * y + 0.5
    return z


def for_with_break(x, y):
    total = ag.zeros_like(x[0])
    for v in x * y:
        if v > 2.0:
            break
        total = total + ag.tanh(v) * v
    return total


def everything(x, y):
    return for_with_break(data_dependent_while(if_on_a_tensor(x, y), y), y)


CASES = {
    "if, true branch": (if_on_a_tensor, [0.5, 1.0, -0.2], [1.5, -2.0, 0.7]),
    "if, false branch": (if_on_a_tensor, [-0.5, 0.1, -0.2], [1.5, -2.0, 0.7]),
    "while": (data_dependent_while, [0.5, 1.0, -0.2], [1.5, 1.1, 1.3]),
    "for with break": (for_with_break, [0.5, 1.0, 3.0, 0.2], [1.5, 1.1, 1.3, 0.4]),
    "for without break": (for_with_break, [0.5, 1.0, 0.3, 0.2], [1.5, 1.1, 1.3, 0.4]),
    "all together": (everything, [0.3, 0.2, 0.1], [1.2, 1.1, 1.3]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_converted_control_flow_gradient_matches_finite_differences(name):
    fn, x, y = CASES[name]
    converted = ag.to_graph(fn)
    arrays = [np.array(x), np.array(y)]
    grad_y = np.random.default_rng(1).normal(size=np.shape(fn(*map(ag.constant, arrays))))
    expected = numerical_gradients(converted, arrays, grad_y)
    for want, got in zip(expected, graph_gradients(converted, arrays, grad_y)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_tape_inside_function_through_if_and_while():
    w = ag.Variable(np.array([0.5, -0.25]))

    @ag.function
    def grads(x):
        with ag.GradientTape() as tape:
            z = x * w
            while ag.reduce_sum(z * z) < 10.0:
                z = z * 1.5 + w
            if ag.reduce_sum(z) > 0:
                loss = ag.reduce_sum(z * z)
            else:
                loss = ag.reduce_sum(ag.exp(z))
        return tape.gradient(loss, w)

    def loss_of(w_value, x):
        z = x * w_value
        while np.sum(z * z) < 10.0:
            z = z * 1.5 + w_value
        return np.sum(z * z) if np.sum(z) > 0 else np.sum(np.exp(z))

    for x in (np.array([2.0, 1.0]), np.array([-3.0, 1.0])):
        numeric = [(loss_of(w.numpy() + d, x) - loss_of(w.numpy() - d, x)) / 2e-6
                   for d in np.eye(2) * 1e-6]
        np.testing.assert_allclose(grads(ag.constant(x)).numpy(), numeric, rtol=1e-5)
    assert grads.trace_count == 1


def test_training_step_inside_function_updates_variables():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 2)).astype(np.float32)
    y = x @ np.array([[2.0], [-1.0]], np.float32) + 0.5
    w = ag.Variable(np.zeros((2, 1), np.float32))
    b = ag.Variable(np.zeros((1,), np.float32))

    @ag.function
    def train_step(x, y):
        with ag.GradientTape() as tape:
            loss = ag.reduce_mean(ag.square(ag.matmul(x, w) + b - y))
        grad_w, grad_b = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * grad_w)
        b.assign_sub(0.1 * grad_b)
        return loss

    losses = [float(train_step(ag.constant(x), ag.constant(y))) for _ in range(60)]
    assert losses[-1] < 1e-3 < losses[0]
    np.testing.assert_allclose(w.numpy().ravel(), [2.0, -1.0], atol=0.02)
    assert train_step.trace_count == 1
