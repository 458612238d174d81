"""`ag.function` and state (issue 4): methods bind per instance, Variables are created on
the first trace only and read when the graph runs, and stateful ops (`ag.print`,
`assign*`, asserts) run on every call, in program order, returned or not; Python side
effects happen while tracing only."""

import gc
import weakref

import numpy as np
import pytest

import autograph_py as ag
from tests.trace_time import expect_trace_time, print_warning

# --- methods ------------------------------------------------------------------------------

class Counter:
    def __init__(self, start=0):
        self.v = ag.Variable(start)

    @ag.function
    def add(self, amount):
        self.v.assign_add(amount)
        return self.v.read_value()


def test_methods_have_per_instance_caches_and_variables():
    a, b = Counter(), Counter(10)
    assert [int(a.add(ag.constant(k))) for k in (3, 4)] == [3, 7]
    assert int(b.add(ag.constant(5))) == 15
    assert (int(a.v), int(b.v)) == (7, 15)
    # Bound like Python methods: equal per instance, each holding its instance's Function.
    assert a.add == a.add and a.add.__func__ is a.add.__func__ and a.add != b.add
    assert (a.add.trace_count, b.add.trace_count, Counter.add.trace_count) == (1, 1, 0)


def test_a_method_function_does_not_keep_its_instance_alive():
    counter = Counter()
    counter.add(ag.constant(1))
    ref = weakref.ref(counter)
    del counter
    gc.collect()
    assert ref() is None
    assert Counter.__dict__["add"]._instances == {}


class PlainCounter:
    """Counter as plain Python: the oracle of the bound-method tests."""

    def __init__(self, start=0):
        self.v = ag.Variable(start)

    def add(self, amount):
        self.v.assign_add(amount)
        return self.v.read_value()


def test_a_method_of_a_temporary_object_works_as_in_python():
    # Issue 25, bug 8: the instance was held weakly only, and died before the call.
    assert int(Counter(5).add(ag.constant(2))) == int(PlainCounter(5).add(ag.constant(2))) == 7


def test_a_bound_method_keeps_its_instance_alive_as_python_does():
    bound, plain = Counter(1).add, PlainCounter(1).add
    gc.collect()
    assert [int(bound(ag.constant(k))) for k in (1, 2)] == \
        [int(plain(ag.constant(k))) for k in (1, 2)] == [2, 4]
    assert bound.trace_count == 1 and bound.__self__.v.numpy() == 4
    ref = weakref.ref(bound.__self__)
    del bound
    gc.collect()
    assert ref() is None and Counter.__dict__["add"]._instances == {}


def test_a_temporary_layer_building_its_weights_on_the_first_call():
    class Scale:
        def __init__(self):
            self.w = None

        @ag.function
        def __call__(self, x):
            if self.w is None:
                self.w = ag.Variable(ag.fill(x.shape, 2.0))
            return x * self.w

    np.testing.assert_array_equal(Scale()(ag.constant([1.0, 3.0])).numpy(), [2.0, 6.0])


def test_methods_work_on_unhashable_instances():
    class Model:  # defines __eq__, so instances are unhashable (like dataclasses)
        def __init__(self):
            self.v = ag.Variable(1.0)

        def __eq__(self, other):
            return self is other

        @ag.function
        def scale(self, x):
            return x * self.v

    m = Model()
    assert float(m.scale(ag.constant(2.0))) == 2.0
    assert float(m.scale(ag.constant(3.0))) == 3.0
    assert m.scale.trace_count == 1


def test_a_method_of_an_object_without_weak_references_is_a_clear_error():
    class Slotted:
        __slots__ = ("v",)

        @ag.function
        def get(self, x):
            return x

    with pytest.raises(TypeError, match=r"add '__weakref__' to its __slots__"):
        Slotted().get(ag.constant(1.0))


def test_python_function_of_a_bound_method_is_the_bound_method():
    c = Counter()
    assert c.add.python_function.__self__ is c
    assert Counter.add.python_function is Counter.__dict__["add"].python_function


# --- Variables --------------------------------------------------------------------------------

def test_variables_created_on_the_first_trace_persist_across_calls():
    class Accumulator:
        def __init__(self):
            self.total = None

        @ag.function
        def __call__(self, x):
            if self.total is None:
                self.total = ag.Variable(0.0)
            return self.total.assign_add(x)

    acc = Accumulator()
    assert [float(acc(ag.constant(v))) for v in (1.0, 2.0, 3.0)] == [1.0, 3.0, 6.0]
    # TensorFlow traces a first call that created Variables twice (the second checks
    # that no new ones are made); both count.
    assert float(acc.total) == 6.0 and acc.__call__.trace_count == 2


def test_creating_a_variable_on_a_later_trace_is_a_clear_error():
    @ag.function
    def grows(x):
        if x.shape[0] > 1:   # a Python test of a static shape: true for the second trace
            ag.Variable(1.0, name="extra")
        return x

    assert grows(ag.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match=r"ag.function 'grows' tried to create Variable "
                                         r"'extra' at .*:\d+ on a later trace \(trace #2\); "
                                         r"create variables on the first call only"):
        grows(ag.constant([1.0, 2.0]))


def test_a_variable_needs_an_initial_value_independent_of_the_inputs():
    @ag.function
    def from_input(x):
        return ag.Variable(x)

    with pytest.raises(ValueError, match="does not depend on the function's inputs"):
        from_input(ag.constant(1.0))


def test_outer_variables_are_read_when_the_graph_runs():
    v = ag.Variable(2.0)
    f = ag.function(lambda x: x * v)
    assert float(f(ag.constant(3.0))) == 6.0
    v.assign(5.0)                                # eagerly, between calls
    assert float(f(ag.constant(3.0))) == 15.0
    v.assign_sub(1.0)
    assert float(f(ag.constant(3.0))) == 12.0
    assert f.trace_count == 1


def test_a_variable_argument_is_read_at_run_time_and_keyed_by_identity():
    f = ag.function(lambda var, x: var * x)
    a, b = ag.Variable(2.0), ag.Variable(3.0)
    assert float(f(a, ag.constant(1.0))) == 2.0
    a.assign(4.0)
    assert float(f(a, ag.constant(1.0))) == 4.0
    assert float(f(b, ag.constant(1.0))) == 3.0
    assert f.trace_count == 2


def test_assignments_inside_run_in_order_and_persist():
    v = ag.Variable(1.0)

    @ag.function
    def update(x):
        v.assign(x)
        v.assign_add(1.0)
        v.assign_sub(0.5)
        return v.read_value() * 2.0

    for x in (1.0, 10.0):
        expected_v = x + 1.0 - 0.5
        assert float(update(ag.constant(x))) == expected_v * 2.0
        assert float(v) == expected_v


# --- side effects -------------------------------------------------------------------------

def test_stateful_ops_run_every_call_in_program_order_even_unreturned(capsys):
    v = ag.Variable(0)

    @ag.function
    def step(x):
        ag.print("start", x)
        v.assign_add(x)          # result unused
        ag.print("after", v)
        ag.debugging.assert_non_negative(x)
        return ag.constant(0)    # nothing returned depends on the ops above

    for x in (1, 2):
        step(ag.constant(x))
    assert capsys.readouterr().out == "start 1\nafter 1\nstart 2\nafter 3\n"
    assert int(v) == 3 and step.trace_count == 1


def test_print_inside_staged_if_and_for_runs_every_call(capsys):
    def report(x, n):
        if x > 0:
            ag.print("positive", x)
        else:
            ag.print("not positive", x)
        for i in ag.range(n):
            ag.print("i =", i)

    f = ag.function(report)
    for x, n in ((1, 2), (-1, 1), (5, 0)):
        f(ag.constant(x), ag.constant(n))
    out = capsys.readouterr().out
    ag.to_graph(report)(ag.constant(1), ag.constant(2))       # the eager oracle ...
    ag.to_graph(report)(ag.constant(-1), ag.constant(1))
    ag.to_graph(report)(ag.constant(5), ag.constant(0))
    assert out == capsys.readouterr().out                     # ... prints the same
    assert out == "positive 1\ni = 0\ni = 1\nnot positive -1\ni = 0\npositive 5\n"
    assert f.trace_count == 1


def test_python_print_runs_while_tracing_only_and_shows_symbolic_handles(capsys):
    @ag.function
    def f(x):
        print("python", x)
        ag.print("graph", x)
        return x

    with expect_trace_time(print_warning(f)):  # Python's print against ag.print, on purpose
        f(ag.constant(1))
        f(ag.constant(2))
    assert capsys.readouterr().out == (
        'python Tensor("x:0", shape=(), dtype=int32)\ngraph 1\ngraph 2\n')


def test_a_failing_assert_stops_the_call_and_later_state_changes():
    v = ag.Variable(0)

    @ag.function
    def guarded(x):
        v.assign_add(1)
        ag.debugging.assert_positive(x, message="x must be positive")
        v.assign_add(100)
        return x

    guarded(ag.constant(1))
    with pytest.raises(ag.InvalidArgumentError, match="x must be positive"):
        guarded(ag.constant(-1))
    assert int(v) == 1 + 100 + 1       # the second call stopped at the assert


def test_stateful_ops_keep_their_order_with_a_gradient_tape_recording(capsys):
    w = ag.Variable(3.0)

    @ag.function
    def loss(x):
        ag.print("loss of", x)
        return w * x * x

    with ag.GradientTape() as tape:
        y = loss(ag.constant(2.0))
    assert float(y) == 12.0
    assert float(tape.gradient(y, w)) == 4.0
    assert capsys.readouterr().out == "loss of 2\n"


def test_function_state_matches_eager_state():
    def run(make_step):
        v = ag.Variable(np.zeros(2, np.float32))

        def decay(x):
            return v.assign(v * 0.5 + x)

        step = make_step(decay)
        for x in ([1.0, 2.0], [3.0, -1.0], [0.0, 0.5]):
            step(ag.constant(x))
        return v.numpy()

    np.testing.assert_array_equal(run(ag.function), run(lambda fn: fn))
