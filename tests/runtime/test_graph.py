"""Graph building: unique names, name scopes, default-graph nesting, eager/graph context."""

import numpy as np
import pytest
from autograph_py.runtime import context, dtypes
from autograph_py.runtime.graph import Graph, get_default_graph, name_scope, reset_default_graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor


def test_names_are_unique_and_follow_creation_order():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [2], name="x")
        a = m.add(x, x)
        b = m.add(x, x)
        c = m.add(x, x, name="Add_1")  # taken: gets a fresh suffix
        d = m.add(x, x)
    names = [t.op.name for t in (a, b, c, d)]
    assert names == ["Add", "Add_1", "Add_1_1", "Add_2"]
    assert [op.name for op in g.get_operations()] == ["x", "Add", "Add_1", "Add_1_1", "Add_2"]
    assert [op.index for op in g.get_operations()] == list(range(5))
    assert g.get_tensor_by_name("Add_1_1:0") is c


def test_explicit_name_taken_later_by_a_generated_one_stays_unique():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.int32, [], name="x")
        m.add(x, 1, name="Add_1")
        generated = [m.add(x, 1).op.name for _ in range(3)]
    assert generated == ["Add", "Add_2", "Add_3"]
    names = [op.name for op in g.get_operations()]
    assert len(names) == len(set(names))


def test_name_scope_prefixes_nested_names():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        with name_scope("outer") as outer:
            a = m.square(x)
            with name_scope("inner") as inner:
                b = m.square(x)
        c = m.square(x)
    assert (outer, inner) == ("outer/", "outer/inner/")
    assert (a.op.name, b.op.name, c.op.name) == ("outer/Square", "outer/inner/Square", "Square")


def test_name_scope_rejects_invalid_names():
    g = Graph()
    with g.as_default(), pytest.raises(ValueError, match="invalid name scope"):
        with name_scope("bad name!"):
            pass


def test_name_scope_is_a_no_op_eagerly():
    with name_scope("eager") as scope:
        assert scope == "eager"
        assert isinstance(m.square(constant(2.0)), EagerTensor)


def test_as_default_nests_and_restores():
    outer, inner = Graph(), Graph()
    assert context.executing_eagerly()
    with outer.as_default():
        a = constant(1.0)
        with inner.as_default():
            assert get_default_graph() is inner
            b = constant(2.0)
        assert get_default_graph() is outer
        c = constant(3.0)
        assert not context.executing_eagerly()
    assert context.executing_eagerly()
    assert a.graph is outer and c.graph is outer and b.graph is inner
    assert len(outer) == 2 and len(inner) == 1


def test_as_default_restores_after_an_exception():
    g = Graph()
    with pytest.raises(RuntimeError), g.as_default():
        raise RuntimeError("boom")
    assert context.current_graph() is None


def test_get_default_graph_falls_back_to_one_global_graph():
    reset_default_graph()
    first = get_default_graph()
    assert get_default_graph() is first
    reset_default_graph()
    assert get_default_graph() is not first


def test_ops_are_eager_without_a_graph_and_symbolic_inside_one():
    eager = m.add(constant([1.0, 2.0]), constant([3.0, 4.0]))
    assert isinstance(eager, EagerTensor)
    np.testing.assert_array_equal(eager.numpy(), [4.0, 6.0])
    with Graph().as_default():
        symbolic = m.add(constant([1.0, 2.0]), constant([3.0, 4.0]))
    assert isinstance(symbolic, SymbolicTensor)
    assert symbolic.shape == (2,) and symbolic.dtype is dtypes.float32


def test_a_symbolic_input_builds_into_its_graph_without_as_default():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [3], name="x")
    y = m.square(x)  # no default graph: the input decides
    assert y.graph is g


def test_eager_tensor_used_in_a_graph_becomes_one_const_op():
    g = Graph()
    value = constant([1, 2, 3])
    with g.as_default():
        a = m.add(value, value)
        b = m.multiply(value, value)
    consts = [op for op in g.get_operations() if op.type == "Const"]
    assert len(consts) == 1
    assert a.op.inputs[0] is consts[0].outputs[0] is b.op.inputs[1]


def test_tensor_of_an_unrelated_graph_is_rejected_by_name():
    g1, g2 = Graph(), Graph()
    with g1.as_default():
        x = placeholder(dtypes.float32, [], name="x")
    with g2.as_default(), pytest.raises(ValueError, match="x:0 belongs to another graph"):
        m.square(x)


def test_inference_errors_name_the_op_and_input_shapes():
    with Graph().as_default():
        a = placeholder(dtypes.float32, [2, 3], name="a")
        b = placeholder(dtypes.float32, [4, 5], name="b")
        with pytest.raises(ValueError, match=r"MatMul.*\(2, 3\).*\(4, 5\)"):
            m.matmul(a, b)


def test_lookup_by_missing_name_is_a_key_error():
    g = Graph()
    with pytest.raises(KeyError, match="nope"):
        g.get_operation_by_name("nope")
