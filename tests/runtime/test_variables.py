"""Variables eagerly (value on the Variable) and in graphs (value per Session, lazy init)."""

import itertools

import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant
from autograph_py.runtime.session import Session
from autograph_py.runtime.tensor import EagerTensor
from autograph_py.runtime.variables import Variable

_fresh = (f"test_var_{i}" for i in itertools.count())  # variable names are process-global


# --- eager -----------------------------------------------------------------------------------


def test_eager_variable_reads_and_writes_its_own_value():
    v = Variable(1.0)
    assert v.dtype is dtypes.float32 and v.shape == ()
    assert v.assign(3.0).numpy() == 3.0
    assert v.assign_add(2.0).numpy() == 5.0
    assert v.assign_sub(1.5).numpy() == 3.5
    value = v.read_value()
    assert isinstance(value, EagerTensor) and value.numpy() == 3.5
    assert v.numpy() == 3.5


def test_write_without_read_value_returns_the_variable():
    v = Variable([1, 2])
    assert v.assign_add([1, 1], read_value=False) is v
    np.testing.assert_array_equal(v.numpy(), [2, 3])


def test_variable_copies_its_initial_array():
    source = np.array([1.0, 2.0], np.float64)
    v = Variable(source)
    source[0] = 100.0
    assert v.dtype is dtypes.float64
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_variable_accepts_a_callable_initial_value():
    v = Variable(lambda: np.zeros((2, 3), np.float32))
    assert v.shape == (2, 3) and v.dtype is dtypes.float32


def test_python_conversions_read_the_current_value():
    v = Variable(2)
    v.assign_add(1)
    assert int(v) == 3 and float(v) == 3.0 and bool(v)
    assert [10, 20, 30, 40][v] == 40
    assert f"{v:03d}" == "003"


def test_variables_are_accepted_by_ops():
    v = Variable([1.0, 2.0])
    np.testing.assert_array_equal(m.add(v, v).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(m.multiply(v, 3.0).numpy(), [3.0, 6.0])


def test_python_operators_on_variables():
    v = Variable(3.0)
    assert (v + 1.0).numpy() == 4.0
    assert (2.0 * v).numpy() == 6.0
    assert (v - v).numpy() == 0.0
    assert bool(v > 2.0)


def test_assigning_a_wrong_shape_names_the_variable():
    name = next(_fresh)
    v = Variable([1.0, 2.0], name=name)
    with pytest.raises(ValueError, match=f"variable '{name}'"):
        v.assign([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


@pytest.mark.parametrize("initial, value", [(1.0, lambda: constant(1)), (1, lambda: 2.5)])
def test_assigning_a_wrong_dtype_names_the_variable(initial, value):
    name = next(_fresh)
    v = Variable(initial, name=name)
    with pytest.raises(TypeError, match=f"variable '{name}'"):
        v.assign(value())


def test_variable_names_are_made_unique():
    name = next(_fresh)
    assert [Variable(0, name=name).name for _ in range(3)] == [name, f"{name}_1", f"{name}_2"]


@pytest.mark.parametrize("method", ["assign_add", "assign_sub"])
def test_scalar_variable_value_stays_an_array_after_update(method):
    v = Variable(1.0)
    getattr(v, method)(1.0)
    assert isinstance(v.numpy(), np.ndarray) and v.numpy().shape == ()


# --- in a graph ------------------------------------------------------------------------------


def test_graph_variable_value_lives_in_each_session():
    g = Graph()
    with g.as_default():
        v = Variable(1.0)
        inc = v.assign_add(1.0)
    with Session(g) as first, Session(g) as second:
        assert first.run(inc) == 2.0
        assert first.run(inc) == 3.0
        assert first.run(v) == 3.0
        assert second.run(v) == 1.0  # initialized lazily from the initial value
        assert second.run(inc) == 2.0
        assert first.run(v) == 3.0


def test_graph_variable_initial_value_may_be_computed():
    g = Graph()
    with g.as_default():
        v = Variable(m.square(constant([2.0, 3.0])))
        total = m.add(v, 1.0)
    with Session(g) as sess:
        np.testing.assert_array_equal(sess.run(total), [5.0, 10.0])


def test_graph_variable_has_no_numpy_value():
    name = next(_fresh)
    with Graph().as_default():
        v = Variable(1.0, name=name)
    with pytest.raises(TypeError, match=f"'{name}' belongs to a graph"):
        v.numpy()


def test_eager_variable_used_in_a_graph_is_shared_by_all_sessions():
    v = Variable(10)
    g = Graph()
    with g.as_default():
        inc = v.assign_add(5)
    with Session(g) as sess:
        assert sess.run(inc) == 15
    assert v.numpy() == 15
    with Session(g) as sess:
        assert sess.run(inc) == 20
    assert v.numpy() == 20


def test_graph_assign_checks_shape_when_building():
    name = next(_fresh)
    with Graph().as_default():
        v = Variable([1.0, 2.0], name=name)
        with pytest.raises(ValueError, match=f"variable '{name}'"):
            v.assign(constant([1.0, 2.0, 3.0]))


def test_reads_and_writes_in_a_graph_run_when_fetched():
    g = Graph()
    with g.as_default():
        v = Variable(0)
        writes = [v.assign(7), v.assign_sub(2)]
    with Session(g) as sess:
        assert sess.run(writes[0]) == 7
        assert sess.run(writes[1]) == 5
        assert sess.run(v) == 5


def test_a_variable_assigned_by_a_compiled_plan_holds_an_array():
    # Repro: a plan's scalar arithmetic (w * x on 0-d values) gives a numpy scalar, which
    # the Variable used to keep, so np.asarray(w) raised "__array__ not producing an array".
    import autograph_py as ag

    w = Variable(1.0, name=next(_fresh))

    @ag.function
    def step(x):
        w.assign(w * x)
        return w + 1.0

    expected = 1.0
    for _ in range(3):
        step(ag.constant(2.0))
        expected *= 2.0
    assert isinstance(w.numpy(), np.ndarray)
    np.testing.assert_array_equal(np.asarray(w), np.float32(expected))
    assert np.asarray(w, dtype=np.float64).dtype == np.float64
