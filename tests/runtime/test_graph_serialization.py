"""runtime.serialization: graphs survive JSON and compute the same values afterwards."""

import json

import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, identity, placeholder
from autograph_py.runtime.registry import OpDef, apply, register, registered_names
from autograph_py.runtime.session import Session
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.variables import Variable
from autograph_py.runtime.views.serialization import (
    decode_array,
    encode_array,
    graph_from_dict,
    graph_to_dict,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def through_json(graph):
    return graph_from_dict(json.loads(json.dumps(graph_to_dict(graph))))


def assert_same_results(original, rebuilt, fetch_names, feeds=None):
    """Both graphs give equal values (and dtypes) for the same named fetches and feeds."""
    feeds = feeds or {}
    results = []
    for graph in (original, rebuilt):
        with Session(graph) as sess:
            results.append(sess.run(list(fetch_names), dict(feeds)))
    for name, a, b in zip(fetch_names, *results):
        np.testing.assert_array_equal(a, b, err_msg=name)
        assert np.asarray(a).dtype == np.asarray(b).dtype, name


def roundtrip(build, fetch_names, feeds=None):
    original = Graph()
    with original.as_default():
        build()
    rebuilt = through_json(original)
    assert rebuilt.as_text() == original.as_text()
    assert rebuilt.lint()
    assert_same_results(original, rebuilt, fetch_names, feeds)
    return original, rebuilt


# --- round trips -----------------------------------------------------------------------------


def test_arithmetic_with_placeholders():
    def build():
        x = placeholder(dtypes.float32, [None, 3], name="x")
        w = constant(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        m.add(m.matmul(x, w), 1.0, name="out")

    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    _, rebuilt = roundtrip(build, ["out:0"], {"x:0": x})
    assert rebuilt.get_tensor_by_name("out:0").shape == (None, 2)


@pytest.mark.parametrize("value", [
    np.float16(1.5), np.float64([1e-300, -2.0]), np.int8([-128, 127]), np.int64(2**40),
    np.uint8([[0, 255]]), np.array([True, False]), np.zeros((0, 3), np.float32),
    np.array(["a", "bc"], dtype=object), np.float32([np.nan, np.inf, -np.inf]),
    np.arange(100, dtype=np.int32).reshape(10, 10),
], ids=lambda v: f"{np.asarray(v).dtype}{np.shape(v)}")
def test_constants_of_several_dtypes_and_shapes(value):
    roundtrip(lambda: identity(constant(np.asarray(value)), name="out"), ["out:0"])


def test_cond_and_nested_while():
    def build():
        x = placeholder(dtypes.float32, [], name="x")
        n = placeholder(dtypes.int32, [], name="n")
        cond(m.greater(x, 0.0), lambda: m.square(x), lambda: m.subtract(x, 1.0), name="c")

        def body(i, s):
            return m.add(i, 1), cond(m.less(s, 50.0), lambda: m.add(s, x), lambda: s)

        while_loop(lambda i, s: m.less(i, n), body, (0, 0.0), maximum_iterations=20,
                   name="w")

    for x, n in [(3.0, 4), (-2.0, 100), (7.5, 0)]:
        roundtrip(build, ["c:0", "w:0", "w:1"], {"x:0": np.float32(x), "n:0": np.int32(n)})


def test_op_library_attrs_survive():
    # shapes, axes and slice specs are tuples/ints/None attrs
    from autograph_py.runtime import public_api as ag

    def build():
        x = placeholder(dtypes.float32, [None, 4], name="x")
        pieces = [ag.reshape(x, [-1, 2]), ag.reduce_sum(x, axis=(0,), keepdims=True),
                  ag.transpose(x), x[1:, ::2], x[0], ag.concat([x, x], axis=1),
                  ag.cast(x, ag.int32), ag.stack([x, x]), ag.gather(x, [0, 1])]
        for i, piece in enumerate(pieces):
            identity(piece, name=f"out{i}")

    feeds = {"x:0": np.arange(12, dtype=np.float32).reshape(3, 4)}
    roundtrip(build, [f"out{i}:0" for i in range(9)], feeds)


def test_graph_variables_are_recreated_once_with_their_names():
    def build():
        v = Variable([1.0, 2.0], name="ser_weights")
        v.assign_add(m.multiply(v, 2.0))

    original, rebuilt = roundtrip(build, ["AssignAddVariable:0"])
    (var,) = rebuilt.variables
    assert var.name == "ser_weights" and var.graph is rebuilt
    assert var is rebuilt.get_operation_by_name("AssignAddVariable").attrs["var"]
    with Session(rebuilt) as sess:
        sess.run("AssignAddVariable")
        np.testing.assert_array_equal(sess.run(var), [3.0, 6.0])


def test_eager_variables_are_recreated_with_their_current_value():
    v = Variable(5, name="ser_counter")
    v.assign(7)
    g = Graph()
    with g.as_default():
        v.assign_add(1)
    rebuilt = through_json(g)
    new_v = rebuilt.get_operation_by_name("AssignAddVariable").attrs["var"]
    assert new_v is not v and new_v.graph is None and new_v.name == "ser_counter"
    with Session(rebuilt) as sess:
        assert sess.run("AssignAddVariable:0") == 8
    assert new_v.numpy() == 8 and v.numpy() == 7


def test_function_graph_keeps_control_inputs_and_signature():
    v = Variable(0, name="ser_chain")
    g = FuncGraph("f", None)
    g.lift_variables = True  # as `function` sets it: variables made inside are eager
    with g.as_default():
        x = g.add_input("x", [], dtypes.int32)
        v.assign_add(x)
        g.outputs = [v.assign_add(x)]
    rebuilt = through_json(g)
    assert isinstance(rebuilt, FuncGraph) and rebuilt.name == "f" and rebuilt.lift_variables
    assert rebuilt.as_text() == g.as_text()
    assert "^AssignAddVariable" in rebuilt.as_text()
    assert [t.name for t in rebuilt.inputs] == ["x:0"]
    assert [op.name for op in rebuilt.stateful_ops] == [op.name for op in g.stateful_ops]


def test_locations_are_kept():
    g = Graph()
    with g.as_default():
        constant(1.0, name="here")
    rebuilt = through_json(g)
    assert rebuilt.get_operation_by_name("here").location == \
        g.get_operation_by_name("here").location
    assert g.get_operation_by_name("here").location[0] == __file__


def test_rebuilt_graph_can_be_extended_without_name_clashes():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        m.square(m.square(x))
    rebuilt = through_json(g)
    with rebuilt.as_default():
        more = m.square(rebuilt.get_tensor_by_name("Square_1:0"))
    assert more.op.name == "Square_2"


# --- attrs -----------------------------------------------------------------------------------


if "TestSerializationAttrs" not in registered_names():
    register(OpDef("TestSerializationAttrs", lambda x, **attrs: x, infer.unary))

ATTRS = {"tuple": (1, (2, 3)), "list": [1, [2.5, None]], "dict": {"k": (True, "s")},
         "slice": slice(1, None, -1), "ellipsis": Ellipsis, "scalar": np.float32(0.5),
         "dtype": dtypes.uint8, "shape": TensorShape([None, 2]), "unknown": TensorShape(None),
         "array": np.eye(2, dtype=np.float64), "none": None, "text": "hello"}


def test_every_attr_kind_survives_with_its_python_type():
    g = Graph()
    with g.as_default():
        apply("TestSerializationAttrs", [constant(1.0)], dict(ATTRS), op_name="attrs")
    attrs = through_json(g).get_operation_by_name("attrs").attrs
    assert attrs.keys() == ATTRS.keys()
    for key, value in ATTRS.items():
        if isinstance(value, np.ndarray):
            assert attrs[key].dtype == value.dtype
            np.testing.assert_array_equal(attrs[key], value)
        else:
            assert attrs[key] == value and type(attrs[key]) is type(value), key


def test_unsupported_attr_names_the_op_and_attr():
    g = Graph()
    with g.as_default():
        apply("TestSerializationAttrs", [constant(1.0)], {"fn": print}, op_name="odd")
    with pytest.raises(TypeError, match="attr 'fn' of op 'odd'"):
        graph_to_dict(g)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float16, np.float32, np.float64, np.int8, np.int16,
                                   np.int32, np.int64, np.uint8, np.bool_]),
                  hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))
def test_arrays_round_trip_exactly(array):
    decoded = decode_array(json.loads(json.dumps(encode_array(array))))
    assert decoded.dtype == array.dtype and decoded.shape == array.shape
    np.testing.assert_array_equal(decoded, array)


# --- errors ----------------------------------------------------------------------------------


def test_a_version_1_stateful_while_reads_as_while():
    original = Graph()
    with original.as_default():
        n = placeholder(dtypes.int32, [], name="n")
        while_loop(lambda i: m.less(i, n), lambda i: m.add(i, 1), (0,), name="w")
    data = graph_to_dict(original)
    for op in data["graph"]["ops"]:
        if op["type"] == "While":
            op["type"] = "StatefulWhile"
    rebuilt = graph_from_dict(data)
    assert rebuilt.get_operation_by_name("w").type == "While"
    assert_same_results(original, rebuilt, ["w:0"], {"n:0": np.int32(3)})


def test_unregistered_op_type_is_named():
    data = graph_to_dict(Graph())
    data["graph"]["ops"].append({"name": "mystery", "type": "NoSuchOp", "inputs": [],
                                 "control_inputs": [], "attrs": {}, "outputs": [],
                                 "location": None})
    with pytest.raises(ValueError, match="'mystery' has type 'NoSuchOp'"):
        graph_from_dict(data)


def test_unknown_input_is_named():
    g = Graph()
    with g.as_default():
        m.square(constant(2.0))
    data = graph_to_dict(g)
    data["graph"]["ops"][1]["inputs"] = ["ghost:0"]
    with pytest.raises(ValueError, match="'ghost:0'"):
        graph_from_dict(data)


@pytest.mark.parametrize("data", [{}, {"format": "other"}, [1, 2]])
def test_foreign_data_is_rejected(data):
    with pytest.raises(ValueError, match="not a serialized graph"):
        graph_from_dict(data)


def test_newer_version_is_rejected():
    data = graph_to_dict(Graph())
    data["version"] = 99
    with pytest.raises(ValueError, match="version 99"):
        graph_from_dict(data)


def test_a_subgraph_alone_cannot_be_serialized():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        cond(m.greater(x, 0.0), lambda: x, lambda: m.square(x))
    then_graph = next(op for op in g.get_operations() if op.type == "If").attrs["then_graph"]
    with pytest.raises(ValueError, match="captures tensors of its outer graph"):
        graph_to_dict(then_graph)
