"""Variables in `ag.function` follow TensorFlow's rule (issue 25, bug 1): a function may
create Variables on its first trace only, and a first trace that created some is followed
by a second that must create none. A function making a new Variable on every call (Python
gives 1, 1, 1; a graph would keep one Variable and give 1, 2, 3) is refused at its first
call, naming the Variable and the user's line; run as Python (converted code on eager
tensors, or `run_functions_eagerly`) it gives Python's answer. The Keras `build()`
pattern and lazily created optimizer slots keep working, checked against eager oracles."""

import inspect
import threading

import numpy as np
import pytest

import autograph_py as ag
from tests.converted_path import converted_path as forced_converted_path


def fresh_each_call(x):
    v = ag.Variable(0.0)
    v.assign_add(x)
    return v.read_value()


def _line(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_python_and_eager_runs_make_a_new_variable_per_call():
    assert [float(fresh_each_call(1.0)) for _ in range(3)] == [1.0, 1.0, 1.0]
    with forced_converted_path():
        converted = ag.to_graph(fresh_each_call)
        assert [float(converted(ag.constant(1.0))) for _ in range(3)] == [1.0, 1.0, 1.0]


def test_run_functions_eagerly_gives_pythons_answer():
    f = ag.function(fresh_each_call)
    ag.config.run_functions_eagerly(True)
    try:
        assert [float(f(ag.constant(1.0))) for _ in range(3)] == [1.0, 1.0, 1.0]
    finally:
        ag.config.run_functions_eagerly(False)


@pytest.mark.parametrize("jit_compile", [False, True], ids=["numpy", "xla"])
def test_a_traced_function_making_a_variable_per_call_is_refused(jit_compile):
    f = ag.function(fresh_each_call, jit_compile=jit_compile)
    location = f"{__file__}:{_line(fresh_each_call, 'ag.Variable')}"
    for _ in range(2):   # never a wrong answer, on any call
        with pytest.raises(ValueError) as info:
            f(ag.constant(1.0))
        message = str(info.value)
        assert "ag.function 'fresh_each_call' tried to create Variable 'Variable' at " \
            f"{location} " in message
        assert "tf.function only supports singleton tf.Variables" in message or \
            "later trace" in message
    assert "behind `if self.v is None:`" in message


def test_the_refusal_names_a_named_variable_and_explains_the_rule():
    @ag.function
    def counter(x):
        total = ag.Variable(0.0, name="total")
        return total.assign_add(x)

    with pytest.raises(ValueError, match=r"tried to create Variable 'total' at .*on its "
                                         r"second trace.*it creates Variables every time it "
                                         r"is traced"):
        counter(ag.constant(2.0))
    with pytest.raises(ValueError, match="tried to create Variable 'total'"):
        counter.get_concrete_function(ag.TensorSpec([], ag.float32))


class Dense:
    """Creates its weights when it first sees an input (Keras `build`); counts its body's
    runs (traces, when called from a traced function)."""

    def __init__(self, units):
        self.units = units
        self.w = self.b = None
        self.runs = 0

    def __call__(self, x):
        self.runs += 1
        if self.w is None:
            self.w = ag.Variable(ag.ones((x.shape[-1], self.units)) * 0.5)
            self.b = ag.Variable(ag.zeros((self.units,)))
        return ag.matmul(x, self.w) + self.b


def test_the_build_pattern_traces_twice_on_the_first_call_then_never():
    traced_layer, eager_layer = Dense(2), Dense(2)
    step = ag.function(lambda x: traced_layer(x))
    batches = [np.arange(6, dtype=np.float32).reshape(2, 3) + k for k in range(3)]
    for x in batches:
        np.testing.assert_array_equal(step(ag.constant(x)).numpy(),
                                      eager_layer(ag.constant(x)).numpy())
    # TensorFlow's count: the first trace created Variables, the second checked that no
    # new ones are made; later calls run the graph.
    assert step.trace_count == traced_layer.runs == 2
    assert traced_layer.w.graph is None


class MomentumSGD:
    """Slots created lazily, one per variable, on the first `apply` (as optimizers do)."""

    def __init__(self, learning_rate, momentum):
        self.learning_rate, self.momentum = learning_rate, momentum
        self.slots = {}

    def apply(self, grads_and_vars):
        for grad, var in grads_and_vars:
            if id(var) not in self.slots:
                self.slots[id(var)] = ag.Variable(ag.zeros(var.shape))
            velocity = self.slots[id(var)]
            velocity.assign(self.momentum * velocity - self.learning_rate * grad)
            var.assign_add(velocity)


def test_lazily_created_slots_train_like_numpy():
    rng = np.random.default_rng(3)
    data = [(rng.standard_normal((4, 2)).astype(np.float32),
             rng.standard_normal((4, 1)).astype(np.float32)) for _ in range(5)]
    w = ag.Variable(np.zeros((2, 1), np.float32))
    optimizer = MomentumSGD(learning_rate=0.1, momentum=0.9)

    @ag.function
    def train_step(x, y):
        with ag.GradientTape() as tape:
            loss = ag.reduce_mean(ag.square(ag.matmul(x, w) - y))
        optimizer.apply([(tape.gradient(loss, w), w)])
        return loss

    losses = [float(train_step(ag.constant(x), ag.constant(y))) for x, y in data]
    assert train_step.trace_count == 2 and len(optimizer.slots) == 1

    expected_w, velocity, expected_losses = np.zeros((2, 1)), np.zeros((2, 1)), []
    for x, y in data:   # the numpy oracle
        error = x @ expected_w - y
        expected_losses.append(np.mean(error ** 2))
        velocity = 0.9 * velocity - 0.1 * (2.0 * x.T @ error / error.size)
        expected_w = expected_w + velocity
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5)
    np.testing.assert_allclose(w.numpy(), expected_w, rtol=1e-5, atol=1e-7)


def test_a_first_trace_without_variables_traces_once():
    w = ag.Variable(2.0)
    f = ag.function(lambda x: x * w)
    assert [float(f(ag.constant(v))) for v in (1.0, 2.0)] == [2.0, 4.0]
    assert f.trace_count == 1


def test_concurrent_first_calls_are_all_refused():
    f = ag.function(fresh_each_call)
    errors, start = [], threading.Barrier(4)

    def call():
        start.wait()
        try:
            f(ag.constant(1.0))
        except ValueError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(errors) == 4
    assert all("tried to create Variable 'Variable'" in e for e in errors)
