"""`ag.config.run_functions_eagerly` (issue 25): while on, every `ag.function` runs its
Python function as written on each call (TensorFlow's `tf.config.run_functions_eagerly`:
no conversion, no tracing, no cache), so `print` and debuggers see every call; off again,
functions trace and cache as before. The oracle is the Python function called directly."""

import sys
import threading

import numpy as np
import pytest

import autograph_py as ag


@pytest.fixture
def eagerly():
    ag.config.run_functions_eagerly(True)
    try:
        yield
    finally:
        ag.config.run_functions_eagerly(False)


def report(x, n):
    print("x =", x, "n =", n)
    total = x
    for _ in range(n):
        if total > 10:
            break
        total = total * 2
    return total


def test_the_switch_and_tensorflows_spellings():
    assert ag.config.functions_run_eagerly() is False
    ag.config.run_functions_eagerly(1)
    try:
        assert ag.config.functions_run_eagerly() is True
        assert ag.config.experimental_functions_run_eagerly() is True
    finally:
        ag.config.experimental_run_functions_eagerly(False)
    assert ag.config.functions_run_eagerly() is False


def test_each_call_runs_the_python_body_with_values(eagerly, capsys):
    f = ag.function(report)
    calls = [(ag.constant(3.0), 2), (ag.constant(7.0), 3), (ag.constant(3.0), 2)]
    results = [f(x, n).numpy() for x, n in calls]
    printed = capsys.readouterr().out
    expected = [report(x, n).numpy() for x, n in calls]   # the oracle, called directly
    assert printed == capsys.readouterr().out
    assert results == expected and printed.count("x = Tensor(3.0") == 2
    assert f.trace_count == 0


def test_off_again_functions_trace_and_cache_as_before(capsys):
    f = ag.function(report)
    ag.config.run_functions_eagerly(True)
    try:
        f(ag.constant(1.0), 2)
    finally:
        ag.config.run_functions_eagerly(False)
    assert "x = Tensor(1.0" in capsys.readouterr().out and f.trace_count == 0
    with pytest.warns(UserWarning, match="print"):   # print runs while tracing only
        results = [float(f(ag.constant(v), 2)) for v in (1.0, 2.0, 3.0)]
    assert results == [float(report(ag.constant(v), 2)) for v in (1.0, 2.0, 3.0)]
    assert capsys.readouterr().out.count('x = Tensor("x:0"') == 1 and f.trace_count == 1


def test_a_debugger_sees_the_function_as_written(eagerly):
    """What a breakpoint needs: the function's own code runs, line by line, on each call
    (TensorFlow runs it unconverted too)."""
    def body(x):
        y = x + 1.0
        return y * 2.0

    f = ag.function(body)
    lines = []

    def tracer(frame, event, arg):
        if frame.f_code is body.__code__:
            if event == "line":
                lines.append(frame.f_lineno - body.__code__.co_firstlineno)
            return tracer
        return None

    sys.settrace(tracer)
    try:
        for v in (1.0, 2.0):
            assert float(f(ag.constant(v))) == (v + 1.0) * 2.0
    finally:
        sys.settrace(None)
    assert lines == [1, 2, 1, 2]


def test_a_variable_made_by_each_call_gives_pythons_answer(eagerly):
    def fresh(x):
        v = ag.Variable(0.0)
        v.assign_add(x)
        return v.read_value()

    f = ag.function(fresh)
    expected = [float(fresh(ag.constant(1.0))) for _ in range(3)]
    assert [float(f(ag.constant(1.0))) for _ in range(3)] == expected == [1.0, 1.0, 1.0]


def test_methods_and_state_run_eagerly(eagerly):
    class Counter:
        def __init__(self):
            self.v = ag.Variable(0)

        @ag.function
        def add(self, amount):
            self.v.assign_add(amount)
            return self.v.read_value()

    c = Counter()
    assert [int(c.add(ag.constant(k))) for k in (1, 2, 3)] == [1, 3, 6]
    assert int(Counter().add(ag.constant(5))) == 5      # a temporary instance
    assert c.add.trace_count == 0


def test_gradients_through_an_eager_run_match_the_traced_ones(eagerly):
    w = ag.Variable([1.0, -2.0])

    def loss(x):
        return ag.reduce_sum(ag.square(w * x))

    f = ag.function(loss)
    x = ag.constant([3.0, 0.5])
    with ag.GradientTape() as tape:
        y = f(x)
    eager_grad = tape.gradient(y, w).numpy()
    ag.config.run_functions_eagerly(False)
    with ag.GradientTape() as tape:
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), eager_grad)
    np.testing.assert_allclose(eager_grad, 2 * np.array([1.0, -2.0]) * np.array([3.0, 0.5]) ** 2)


def test_arguments_are_passed_as_they_are_as_in_tensorflow(eagerly):
    # No input_signature check or conversion: the Python function gets what was passed.
    f = ag.function(lambda x: x * 2, input_signature=[ag.TensorSpec([], ag.float32)])
    assert f(1.5) == 3.0


def test_a_function_called_while_a_graph_is_built_is_still_staged(eagerly):
    """Inside a graph there is nothing to run eagerly: the inner function is inlined,
    converted, so its Python `if` on a tensor is staged (as written it would raise)."""
    @ag.function
    def relu_like(x):
        if x > 0:
            return x
        return -0.5 * x

    def outer(x):
        return relu_like(x) + 1.0

    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        y = ag.to_graph(outer)(x)
        with ag.Session() as sess:
            got = [sess.run(y, {x: v}) for v in (2.0, -4.0)]
    assert got == [outer(ag.constant(v)).numpy() for v in (2.0, -4.0)] == [3.0, 3.0]


def test_the_switch_is_one_for_all_threads(eagerly):
    f = ag.function(lambda x: x + 1)
    done = []
    worker = threading.Thread(target=lambda: done.append(int(f(ag.constant(1)))))
    worker.start()
    worker.join()
    assert done == [2] and f.trace_count == 0
