"""runtime.views.lint: well-formed graphs pass, each kind of corruption is named.

The graph API cannot build malformed graphs, so the tests corrupt built graphs by hand.
"""

import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.variables import Variable


def arithmetic():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [2], name="x")
        y = m.square(x, name="y")
        m.add(x, y, name="z")
    return g


def control_flow():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        v = Variable(0.0)
        cond(m.greater(x, 0.0), lambda: v.assign_add(x), lambda: m.square(x), name="branch")

        def body(i, s):
            inner = cond(m.less(s, 10.0), lambda: m.add(s, x), lambda: s)
            return m.add(i, 1), inner

        while_loop(lambda i, s: m.less(i, 5), body, (0, 1.0), name="loop")
    return g


@pytest.mark.parametrize("build", [arithmetic, control_flow])
def test_well_formed_graphs_pass(build):
    assert build().lint() is True


def expect_lint_error(graph, *fragments):
    with pytest.raises(ValueError) as info:
        graph.lint()
    for fragment in fragments:
        assert fragment in str(info.value)


def test_duplicate_names():
    g = arithmetic()
    g.get_operation_by_name("z").name = "y"
    expect_lint_error(g, "'y' (Add)", "same name")


def test_ops_out_of_topological_order():
    g = arithmetic()
    g._ops.reverse()
    for index, op in enumerate(g._ops):
        op.index = index
    expect_lint_error(g, "'z' (Add)", "not produced by an earlier op")


def test_index_that_disagrees_with_the_position():
    g = arithmetic()
    g.get_operation_by_name("y").index = 7
    expect_lint_error(g, "'y'", "index 7")


def test_output_that_does_not_point_back():
    g = arithmetic()
    y, z = g.get_operation_by_name("y"), g.get_operation_by_name("z")
    y.outputs[0].op = z
    expect_lint_error(g, "'y'", "does not point back")


def test_recorded_shape_that_its_shape_rule_does_not_give():
    g = arithmetic()
    g.get_operation_by_name("y").outputs[0]._shape = TensorShape([3])
    expect_lint_error(g, "'y' (Square)", "output 0 is recorded as float32 (3,)",
                      "shape rule gives float32 (2,)")


def test_recorded_dtype_that_its_shape_rule_does_not_give():
    g = arithmetic()
    g.get_operation_by_name("z").outputs[0]._dtype = dtypes.float64
    expect_lint_error(g, "'z' (Add)", "recorded as float64", "gives float32")


def test_a_shape_more_specific_than_the_rule_gives_passes():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [None], name="x")
        y = m.square(x, name="y")
    y.set_shape([4])
    assert g.lint()


def test_inputs_that_the_shape_rule_rejects_now():
    g = arithmetic()
    g.get_operation_by_name("y").inputs = ()  # Square's rule takes one input
    expect_lint_error(g, "'y' (Square)", "shape rule rejects its inputs")


def test_input_from_another_graph():
    g, other = arithmetic(), arithmetic()
    z = g.get_operation_by_name("z")
    z.inputs = (z.inputs[0], other.get_tensor_by_name("y:0"))
    expect_lint_error(g, "'z'", "input 1 y:0")


def test_control_input_created_later():
    g = arithmetic()
    g.get_operation_by_name("y").control_inputs.append(g.get_operation_by_name("z"))
    expect_lint_error(g, "'y'", "control input 'z'")


def test_stateful_op_missing_from_stateful_ops():
    g = Graph()
    with g.as_default():
        Variable(1.0, name="lint_v").assign(2.0)
    g.stateful_ops.clear()
    expect_lint_error(g, "'AssignVariable'", "stateful_ops")


def _op(graph, op_type):
    return next(op for op in graph.get_operations() if op.type == op_type)


def test_capture_that_is_not_an_input():
    g = control_flow()
    then_graph = g.get_operation_by_name("branch").attrs["then_graph"]
    then_graph.inputs.pop()
    expect_lint_error(g, "in then_graph of op 'branch'", "not one of its inputs")


def test_if_indices_that_point_outside_the_captures():
    g = control_flow()
    g.get_operation_by_name("branch").attrs["else_indices"] = [9]
    expect_lint_error(g, "'branch' (StatefulIf)", "else_indices [9]")


def test_if_whose_branch_returns_too_few_outputs():
    g = control_flow()
    g.get_operation_by_name("branch").attrs["else_graph"].outputs = []
    expect_lint_error(g, "'branch' (StatefulIf)",
                      "else_graph outputs: 0 tensors where the op has 1")


def test_while_body_with_a_wrong_output_dtype():
    g = control_flow()
    body = g.get_operation_by_name("loop").attrs["body_graph"]
    body.outputs = [body.outputs[1], body.outputs[1]]
    expect_lint_error(g, "'loop' (While)", "body_graph outputs: tensor 0 has dtype float32")


def test_while_cond_that_is_not_bool():
    g = control_flow()
    cond_graph = g.get_operation_by_name("loop").attrs["cond_graph"]
    cond_graph.outputs = [cond_graph.inputs[0]]
    expect_lint_error(g, "'loop' (While)", "one bool tensor")


def test_errors_inside_nested_subgraphs_name_the_path():
    g = control_flow()
    body = g.get_operation_by_name("loop").attrs["body_graph"]
    then_ops = _op(body, "If").attrs["then_graph"].get_operations()
    then_ops[-1].name = then_ops[0].name
    expect_lint_error(g, "in body_graph of op 'loop': in then_graph of op 'If': ",
                      f"op '{then_ops[0].name}'", "same name")


def test_subgraph_with_a_foreign_outer_graph():
    g = control_flow()
    g.get_operation_by_name("branch").attrs["then_graph"].outer_graph = Graph()
    expect_lint_error(g, "'branch' (StatefulIf)", "outer graph")


def test_lint_accepts_an_empty_graph_and_constants():
    g = Graph()
    assert g.lint()
    with g.as_default():
        constant([1, 2, 3])
    assert g.lint()
