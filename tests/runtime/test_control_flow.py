"""cond / while_loop, eagerly and in graphs, against plain-Python oracles."""

import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.plan.executor import run_subgraph
from autograph_py.runtime.recording import EAGER_CONTEXT
from autograph_py.runtime.session import Session
from autograph_py.runtime.tensor import SymbolicTensor
from autograph_py.runtime.variables import Variable
from hypothesis import given, settings
from hypothesis import strategies as st


def run_graph(build, feeds):
    """Build `build(*placeholders)` in a fresh graph and run it on `feeds` (name -> value)."""
    g = Graph()
    with g.as_default():
        args = [placeholder(dtypes.as_dtype(np.asarray(v).dtype), np.shape(v), name=k)
                for k, v in feeds.items()]
        out = build(*args)
    with Session(g) as sess:
        return sess.run(out, dict(zip(args, feeds.values())))


# --- oracles ---------------------------------------------------------------------------------


def collatz_steps(n):
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def piecewise(x):
    return x * x if x > 0 else x - 1


def staged_piecewise(x):
    return cond(m.greater(x, 0.0), lambda: m.square(x), lambda: m.subtract(x, 1.0))


@settings(max_examples=25, deadline=None)
@given(st.floats(-100, 100, width=32))
def test_cond_matches_python_eagerly_and_in_a_graph(x):
    x = np.float32(x)
    expected = piecewise(x)
    assert staged_piecewise(constant(x)).numpy() == expected
    assert run_graph(staged_piecewise, {"x": x}) == expected


def sum_below(n):
    """sum(range(n)) with a while loop over (i, total)."""
    return while_loop(lambda i, total: m.less(i, n),
                      lambda i, total: (m.add(i, 1), m.add(total, i)),
                      (0, 0))


@settings(max_examples=20, deadline=None)
@given(st.integers(-3, 60))
def test_while_loop_matches_python_eagerly_and_in_a_graph(n):
    expected = (max(n, 0), sum(range(n)))
    i, total = sum_below(constant(n))
    assert (int(i), int(total)) == expected
    assert tuple(run_graph(sum_below, {"n": np.int32(n)})) == expected


def test_while_loop_with_nested_python_control_flow_in_the_body():
    def body(n, steps):
        even = m.equal(m.mod(n, 2), 0)
        return (cond(even, lambda: m.floordiv(n, 2), lambda: m.add(m.multiply(n, 3), 1)),
                m.add(steps, 1))

    def steps(n):
        return while_loop(lambda n, s: m.greater(n, 1), body, (n, 0))[1]

    for n in (1, 6, 27):
        assert int(steps(constant(n))) == collatz_steps(n)
        assert run_graph(steps, {"n": np.int32(n)}) == collatz_steps(n)


def test_python_values_keep_python_semantics():
    assert cond(True, lambda: "yes", lambda: "no") == "yes"
    assert while_loop(lambda i: i < 10, lambda i: i + 3, 0) == 12


def test_graph_mode_produces_one_op_holding_subgraphs():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        y = staged_piecewise(x)
    (op,) = [op for op in g.get_operations() if op.type == "If"]
    assert isinstance(y, SymbolicTensor) and y.op is op
    assert isinstance(op.attrs["then_graph"], FuncGraph)
    assert op.attrs["then_graph"].captured_outer_tensors == [x]


# --- nested structures -----------------------------------------------------------------------


def test_cond_returns_nested_structures_and_keeps_shared_python_objects():
    marker = object()

    def build(p):
        return cond(p, lambda: (1, {"a": 2.0, "b": marker}), lambda: (3, {"a": 4.0, "b": marker}))

    g = Graph()
    with g.as_default():
        p = placeholder(dtypes.bool_, [], name="p")
        out = build(p)
    assert out[1]["b"] is marker
    with Session(g) as sess:
        assert sess.run(out[:1] + ({"a": out[1]["a"]},), {p: False}) == (3, {"a": 4.0})
        assert sess.run(out[0], {p: True}) == 1


def test_while_loop_with_tuple_and_dict_loop_vars():
    def build(n):
        state = while_loop(
            lambda s: m.less(s["i"], n),
            lambda s: {"i": m.add(s["i"], 1), "pair": (m.multiply(s["pair"][0], 2),
                                                       m.add(s["pair"][1], 0.5))},
            {"i": 0, "pair": (1, 0.0)})
        return state

    eager = build(constant(5))
    graph = run_graph(build, {"n": np.int32(5)})
    for result in (eager, graph):
        assert int(result["i"]) == 5
        assert int(result["pair"][0]) == 32 and float(result["pair"][1]) == 2.5


def test_branches_with_different_structures_are_rejected():
    with Graph().as_default():
        p = placeholder(dtypes.bool_, [], name="p")
        with pytest.raises(ValueError, match="different structures"):
            cond(p, lambda: (1, 2), lambda: 1)


# --- shapes and dtypes -----------------------------------------------------------------------


def test_a_loop_var_whose_shape_changes_needs_a_shape_invariant():
    def grow(x, invariants=None):
        return while_loop(lambda i, v: m.less(i, 3),
                          lambda i, v: (m.add(i, 1), m.add(v, constant([1.0, 1.0]))),
                          (0, x), shape_invariants=invariants)

    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [1], name="x")
        with pytest.raises(ValueError, match=r"'v' has shape \(1,\) before the loop but "
                                             r"\(2,\) after one iteration.*shape_invariants"):
            grow(x)
        _, v = grow(x, (None, [None]))
    assert v.shape == (None,)
    with Session(g) as sess:
        np.testing.assert_array_equal(sess.run(v, {x: [0.5]}), [3.5, 3.5])
    np.testing.assert_array_equal(grow(constant([0.5]))[1].numpy(), [3.5, 3.5])


def test_cond_output_shape_is_the_most_specific_common_shape():
    with Graph().as_default():
        p = placeholder(dtypes.bool_, [], name="p")
        out = cond(p, lambda: constant([1.0, 2.0]), lambda: constant([1.0, 2.0, 3.0]))
    assert out.shape == (None,)


def test_loop_var_dtype_change_names_the_variable():
    with Graph().as_default():
        n = placeholder(dtypes.int32, [], name="n")
        with pytest.raises(TypeError, match="loop variable 'total' has dtype int32 before"):
            while_loop(lambda i, total: m.less(i, n),
                       lambda i, total: (m.add(i, 1), constant(1.5)),
                       (0, 0), names=("i", "total"))


def test_branch_dtype_mismatch_names_the_output():
    with Graph().as_default():
        p = placeholder(dtypes.bool_, [], name="p")
        with pytest.raises(TypeError, match="'y' has dtype int32 in the true branch but float32"):
            cond(p, lambda: constant(1), lambda: constant(2.5), names=("y",))


def test_python_number_in_a_branch_takes_the_other_branch_dtype():
    out = run_graph(lambda p: cond(p, lambda: constant(2.5), lambda: 0), {"p": np.bool_(False)})
    assert out == 0.0 and out.dtype == np.float32


@pytest.mark.parametrize("make_pred, error, message", [
    (lambda: placeholder(dtypes.bool_, [2]), ValueError, "must be a scalar"),
    (lambda: placeholder(dtypes.float32, []), TypeError, "must be a bool tensor"),
    (lambda: placeholder(dtypes.int32, []), TypeError, "dtype int32"),
])
def test_bad_graph_predicates(make_pred, error, message):
    with Graph().as_default():
        pred = make_pred()
        with pytest.raises(error, match=message):
            cond(pred, lambda: 1, lambda: 2)
        with pytest.raises(error, match=message):
            while_loop(lambda i: pred, lambda i: m.add(i, 1), (0,))


def test_non_scalar_eager_predicates_are_rejected():
    with pytest.raises(ValueError, match="must be a scalar"):
        cond(constant([True, False]), lambda: 1, lambda: 2)
    with pytest.raises(ValueError, match="must be a scalar"):
        while_loop(lambda i: constant([True, True]), lambda i: i, constant(0))


# --- maximum_iterations ----------------------------------------------------------------------


@pytest.mark.parametrize("limit", [0, 1, 2, 10])
def test_maximum_iterations_stops_the_loop(limit):
    def build(start):
        return while_loop(lambda i: m.less(i, 10), lambda i: m.add(i, 3), start,
                          maximum_iterations=limit)

    expected, iterations = 0, 0
    while expected < 10 and iterations < limit:
        expected, iterations = expected + 3, iterations + 1
    assert int(build(constant(0))) == expected
    assert run_graph(build, {"start": np.int32(0)}) == expected


# --- stateful ops inside branches and bodies -------------------------------------------------


@pytest.mark.parametrize("graph_variable", [True, False])
def test_a_branch_side_effect_runs_only_when_its_branch_runs(graph_variable):
    eager_v = None if graph_variable else Variable(0)
    g = Graph()
    with g.as_default():
        v = Variable(0) if graph_variable else eager_v
        p = placeholder(dtypes.bool_, [], name="p")
        out = cond(p, lambda: v.assign_add(10), lambda: v.assign_sub(1))
    with Session(g) as sess:
        values = [int(sess.run(out, {p: pred})) for pred in (True, True, False)]
        assert values == [10, 20, 19]
        assert sess.run(v) == 19
    if not graph_variable:
        assert eager_v.numpy() == 19


def test_a_body_side_effect_runs_once_per_iteration():
    g = Graph()
    with g.as_default():
        counter = Variable(0)
        n = placeholder(dtypes.int32, [], name="n")

        def body(i):
            counter.assign_add(1)  # its value is not used: it runs because it is stateful
            return (m.add(i, 1),)

        out = while_loop(lambda i: m.less(i, n), body, (0,))
    with Session(g) as sess:
        assert sess.run(out, {n: 4}) == (4,)
        assert sess.run(counter) == 4
        sess.run(out, {n: 0})
        assert sess.run(counter) == 4


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_a_one_element_loop_vars_tuple_accepts_a_bare_body_result(mode):
    def build(n):
        return while_loop(lambda i: m.less(i, n), lambda i: m.add(i, 1), (0,))

    result = build(constant(3)) if mode == "eager" else run_graph(build, {"n": np.int32(3)})
    assert [int(v) for v in result] == [3]


# Regression: If/While whose bodies hold stateful ops are stateful (never pruned).
def test_a_side_effect_only_cond_runs_in_a_function_graph():
    v = Variable(0)
    g = FuncGraph("f", None)
    with g.as_default():
        p = g.add_input("p", [], dtypes.bool_)

        def bump():
            v.assign_add(1)

        cond(p, bump, lambda: None)
    run_subgraph(EAGER_CONTEXT, g, [np.asarray(True)])
    assert v.numpy() == 1


def test_a_side_effect_only_while_runs_in_a_function_graph():
    v = Variable(0)
    g = FuncGraph("f", None)
    with g.as_default():
        n = g.add_input("n", [], dtypes.int32)

        def body(i):
            v.assign_add(2)
            return (m.add(i, 1),)

        while_loop(lambda i: m.less(i, n), body, (0,))
    run_subgraph(EAGER_CONTEXT, g, [np.asarray(3, np.int32)])
    assert v.numpy() == 6


def test_a_while_loop_is_stateful_even_without_side_effects():
    # It may not terminate (or fail), which must happen even when its results are unused.
    g = FuncGraph("f", None)
    with g.as_default():
        n = g.add_input("n", [], dtypes.int32)
        while_loop(lambda i: m.less(i, n), lambda i: (m.add(i, 1),), (0,))
    assert [op.type for op in g.stateful_ops] == ["While"]


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("body, message", [
    (lambda i, total: m.add(i, 1), r"expected 2 values, got 1"),
    (lambda i, total: (m.add(i, 1), total, total), r"expected 2 values, got 3"),
    (lambda i, total: (m.add(i, 1), (total, total)),
     r"total: one is a nested structure \(tuple\) and the other is not"),
])
def test_a_body_of_the_wrong_structure_names_the_loop_variables(mode, body, message):
    def build(n):
        return while_loop(lambda i, total: m.less(i, n), body, [0, 0])

    with pytest.raises(ValueError, match=r"while_loop: the body must return the loop variables "
                                         r"\(i, total\) in their structure, got .*: " + message):
        build(constant(3)) if mode == "eager" else run_graph(build, {"n": np.int32(3)})


@pytest.mark.parametrize("none_in", ["true", "false"])
def test_cond_names_the_branch_that_returns_none(none_in):
    with Graph().as_default():
        pred = placeholder(dtypes.bool_, shape=())
        branches = [lambda: None, lambda: constant(1)]
        if none_in == "false":
            branches.reverse()
        with pytest.raises(ValueError, match=f"is None in the {none_in} branch"):
            cond(pred, *branches)
