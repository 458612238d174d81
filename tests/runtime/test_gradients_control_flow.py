"""Gradients through `cond` and `while_loop` in graph mode (If / While ops), checked by
central finite differences in float64: the branch that ran, data-dependent loops, nesting,
loop variables that change shape, Variables read inside, tapes while building a graph,
and side effects that computing the gradient must not repeat."""

import autograph_py.runtime.tensor_operators  # noqa: F401  (Python operators on tensors)
import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.gradients.checker import graph_gradients, numerical_gradients
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import concat, shape
from autograph_py.runtime.ops.core import placeholder
from autograph_py.runtime.ops.logging_ops import print_
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.session import Session
from autograph_py.runtime.variables import Variable


def check(fn, *arrays):
    """fn's graph gradients equal finite differences (fn is also run eagerly for those)."""
    grad_y = np.random.default_rng(0).normal(size=np.shape(fn(*arrays)))
    expected = numerical_gradients(fn, [np.asarray(a, np.float64) for a in arrays], grad_y)
    computed = graph_gradients(fn, [np.asarray(a, np.float64) for a in arrays], grad_y)
    for want, got in zip(expected, computed):
        got = np.zeros_like(want) if got is None else got
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def branchy(x, y):
    return cond(reduce_sum(x) > 0, lambda: x * x * y, lambda: m.exp(x) - y)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_cond_gradient_flows_into_the_branch_that_ran(sign):
    check(branchy, sign * np.array([0.5, 1.5]), np.array([2.0, -1.0]))


def test_cond_with_a_branch_that_ignores_an_input():
    check(lambda x, y: cond(x > 1.0, lambda: x * 3.0, lambda: y * y), 2.0, 0.7)
    check(lambda x, y: cond(x > 1.0, lambda: x * 3.0, lambda: y * y), 0.5, 0.7)


def grow(x, y):
    """A data-dependent number of iterations (x is not a loop variable: a capture)."""
    v, _ = while_loop(lambda v, i: reduce_sum(v * v) < 50.0,
                      lambda v, i: (v * y + x, i + 1), [x, 0])
    return v


@pytest.mark.parametrize("start", [0.3, 1.0, 3.0])
def test_while_gradient_over_a_data_dependent_number_of_iterations(start):
    check(grow, np.array([start, 0.5 * start]), np.array([1.5, 1.2]))


def test_while_that_runs_zero_times():
    check(grow, np.array([10.0, 10.0]), np.array([1.5, 1.2]))


def test_while_with_maximum_iterations():
    check(lambda x: while_loop(lambda v: v < 1e9, lambda v: [v * v + 0.1], [x],
                               maximum_iterations=3)[0], 1.1)


def test_nested_while_loops():
    def fn(x):
        def outer_body(v, i):
            inner, _ = while_loop(lambda u, j: j < i, lambda u, j: (m.tanh(u) + v, j + 1),
                                  [v, 0])
            return inner * 0.9, i + 1

        return while_loop(lambda v, i: i < 3, outer_body, [x, 0])[0]

    check(fn, np.array([0.2, -0.4]))


def test_cond_inside_a_while_body_and_while_inside_a_cond_branch():
    def cond_in_loop(x):
        body = lambda v, i: (cond(v > 1.0, lambda: v * 0.5, lambda: v * v + 0.7), i + 1)  # noqa: E731
        return while_loop(lambda v, i: i < 5, body, [x, 0])[0]

    def loop_in_cond(x):
        return cond(x > 0, lambda: while_loop(lambda v: v < 10.0, lambda v: [v * 1.5], [x])[0],
                    lambda: -x)

    check(cond_in_loop, 0.9)
    check(loop_in_cond, 0.8)
    check(loop_in_cond, -0.8)


def test_loop_variable_that_changes_shape():
    def fn(x):
        def body(s):
            return [concat([s, s[-1:] * x], axis=0)]

        return while_loop(lambda s: shape(s)[0] < 4, body, [x[:1] + 0.0],
                          shape_invariants=[[None]])[0]

    check(fn, np.array([1.3, 0.7]))


def test_second_derivative_through_cond():
    with Graph().as_default():
        x = placeholder(dtypes.float64, [])
        y = cond(x > 0, lambda: x * x * x, lambda: x * x)
        dy, = gradients(y, x)
        d2y, = gradients(dy, x)
        with Session() as session:
            assert session.run([dy, d2y], {x: 2.0}) == [12.0, 12.0]
            assert session.run([dy, d2y], {x: -2.0}) == [-4.0, 2.0]


def test_variables_read_inside_cond_and_while_get_gradients():
    w, b = Variable(np.array(1.5)), Variable(np.array(0.25))
    with Graph().as_default():
        x = placeholder(dtypes.float64, [])
        looped = while_loop(lambda v: v < 20.0, lambda v: [v * w + b], [x])[0]
        y = cond(x > 1.0, lambda: looped * w, lambda: looped + b * b)
        grads = gradients(y, [x, w, b])
        with Session() as session:
            got = session.run(grads, {x: 1.2})

    def value(x, w, b):
        v = x
        while v < 20.0:
            v = v * w + b
        return v * w if x > 1.0 else v + b * b

    args = np.array([1.2, 1.5, 0.25])
    for i in range(3):
        step = np.zeros(3)
        step[i] = 1e-6
        numeric = (value(*(args + step)) - value(*(args - step))) / 2e-6
        np.testing.assert_allclose(got[i], numeric, rtol=1e-5)


def test_tape_while_building_a_graph_reaches_variables_inside_control_flow():
    w = Variable(np.array(2.0))
    with Graph().as_default():
        x = placeholder(dtypes.float64, [])
        with GradientTape() as tape:
            y = while_loop(lambda v: v < 10.0, lambda v: [v * w], [x])[0]
        assert tape.watched_variables() == (w,)
        gw, = tape.gradient(y, [w])
        with Session() as session:
            assert session.run(gw, {x: 1.5}) == 3 * 1.5 * 4.0  # y = x w^3: 3 x w^2


def test_gradient_does_not_repeat_side_effects(capsys):
    with Graph().as_default():
        x = placeholder(dtypes.float64, [])

        def body(v):
            print_("step", v)
            return [v * 2.0]

        y = while_loop(lambda v: v < 10.0, body, [x])[0]
        dy, = gradients(y, x)
        with Session() as session:
            assert session.run([y, dy], {x: 3.0}) == [12.0, 4.0]
    # The forward loop printed for its two iterations; the gradient replayed it silently.
    assert capsys.readouterr().out == "step 3\nstep 6\n"


def test_output_that_depends_on_an_assignment_is_a_clear_error():
    v = Variable(np.array(1.0))
    with Graph().as_default():
        x = placeholder(dtypes.float64, [])
        y = cond(x > 0, lambda: x * v.assign_add(1.0), lambda: x)
        with pytest.raises(NotImplementedError, match="AssignAddVariable"):
            gradients(y, x)
