"""The `Call` op: a traced graph run as one op, so an eager tape differentiates through
it (what `function` needs for a call made while a tape records), checked by finite
differences, with Variables read inside, higher derivatives, and no repeated prints."""

import autograph_py.runtime.tensor_operators  # noqa: F401  (Python operators on tensors)
import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.gradients.checker import numerical_gradients, tape_gradients
from autograph_py.runtime.gradients.function_call import call_graph
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant
from autograph_py.runtime.ops.logging_ops import print_
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.variables import Variable


def trace(fn, *specs):
    """A function graph as `function` traces it: placeholders in, outputs recorded."""
    graph = FuncGraph("traced", None)
    with graph.as_default():
        result = fn(*(graph.add_input(f"x{i}", s, d) for i, (s, d) in enumerate(specs)))
        graph.outputs = list(result) if isinstance(result, tuple) else [result]
    return graph


W = Variable(np.array([0.5, -1.5]))


def body(x, y):
    z = cond(reduce_sum(x) > 0, lambda: x * W, lambda: m.exp(x) * y)
    z = while_loop(lambda v: reduce_sum(v * v) < 20.0, lambda v: [v * 1.5 + y], [z])[0]
    return reduce_sum(z * z), z


GRAPH = trace(body, ([2], dtypes.float64), ([], dtypes.float64))


def first_output(x, y):
    return call_graph(GRAPH, [x, y])[0]


def test_gradients_through_a_call_match_finite_differences():
    for x in ([0.7, 0.4], [-0.3, -0.2]):
        arrays = [np.array(x), np.array(0.8)]
        expected = numerical_gradients(first_output, arrays, 1.0)
        for want, got in zip(expected, tape_gradients(first_output, arrays, 1.0)):
            np.testing.assert_allclose(got, want, rtol=1e-5)


def test_variables_read_inside_the_call_are_watched():
    x, y = constant(np.array([0.7, 0.4])), constant(0.8)
    with GradientTape() as tape:
        loss = first_output(x, y)
    assert tape.watched_variables() == (W,)
    got = tape.gradient(loss, W).numpy()
    w0 = W.numpy().copy()

    def loss_at(w):
        W.assign(w)
        return float(first_output(x, y))

    numeric = [(loss_at(w0 + d) - loss_at(w0 - d)) / 2e-6 for d in np.eye(2) * 1e-6]
    W.assign(w0)
    np.testing.assert_allclose(got, numeric, rtol=1e-5)


def test_second_derivative_through_a_call():
    graph = trace(lambda x: x * x * x, ([], dtypes.float64))
    x = constant(np.array(2.0))
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = call_graph(graph, [x])[0]
        dy = inner.gradient(y, x)
    assert (float(dy), float(outer.gradient(dy, x))) == (12.0, 12.0)


def test_gradient_of_a_call_does_not_repeat_its_prints(capsys):
    def noisy(x):
        print_("called")
        return x * 2.0

    graph = trace(noisy, ([], dtypes.float64))
    x = constant(np.array(1.0))
    with GradientTape() as tape:
        tape.watch(x)
        y = call_graph(graph, [x])[0]
    assert float(tape.gradient(y, x)) == 2.0
    assert capsys.readouterr().out == "called\n"
