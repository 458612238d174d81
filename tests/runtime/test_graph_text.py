"""The printed form of graphs (runtime.views.text)."""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.variables import Variable


def test_one_line_per_op_with_types_inputs_and_attrs():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [2, 2], name="x")
        m.add(x, m.square(x))
    assert g.as_text() == (
        "%x:0: float32[2, 2] = Placeholder(dtype=float32, shape=[2, 2])\n"
        "%Square:0: float32[2, 2] = Square(%x:0)\n"
        "%Add:0: float32[2, 2] = Add(%x:0, %Square:0)")
    assert str(g) == g.as_text()


def test_unknown_dims_and_ranks():
    g = Graph()
    with g.as_default():
        placeholder(dtypes.int64, [None, 3], name="rows")
        placeholder(dtypes.bool_, None, name="anything")
    assert g.as_text().splitlines() == [
        "%rows:0: int64[?, 3] = Placeholder(dtype=int64, shape=[?, 3])",
        "%anything:0: bool[...] = Placeholder(dtype=bool, shape=[...])"]


def test_small_constants_inline_and_large_ones_summarized():
    g = Graph()
    with g.as_default():
        constant(2.5, name="scalar")
        constant([[1, 2], [3, 4]], name="small")
        constant(np.zeros((100, 10), np.float64), name="big")
    assert g.as_text().splitlines() == [
        "%scalar:0: float32[] = Const(value=2.5, dtype=float32)",
        "%small:0: int32[2, 2] = Const(value=[[1, 2], [3, 4]], dtype=int32)",
        "%big:0: float64[100, 10] = Const(value=<float64[100, 10]>, dtype=float64)"]


def test_control_inputs_and_variables():
    v = Variable(0, name="text_counter")
    g = FuncGraph("f", None)  # function graphs chain their stateful ops
    with g.as_default():
        v.assign_add(1)
        v.assign_add(2)
    lines = g.as_text().splitlines()
    assert lines[0] == "f() -> ():"
    assert lines[-1] == ("    %AssignAddVariable_1:0: int32[] = AssignAddVariable("
                         "%Const_1:0, ^AssignAddVariable, var=Variable('text_counter'))")


def test_subgraphs_are_indented_below_their_op():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        cond(m.greater(x, 0.0), lambda: m.square(x), lambda: x)
    lines = g.as_text().splitlines()
    if_line = lines.index(next(line for line in lines if line.startswith("%If:0")))
    assert lines[if_line] == (
        "%If:0: float32[] = If(%Greater:0, %x:0, then_graph=@then, else_graph=@else, "
        "then_indices=[0], else_indices=[0], output_specs=[float32[]])")
    assert lines[if_line + 1:] == [
        "    then(%x_capture:0 <- %x:0) -> (%Square:0):",
        "        %x_capture:0: float32[] = Placeholder(dtype=float32, shape=[])",
        "        %Square:0: float32[] = Square(%x_capture:0)",
        "    else(%x_capture:0 <- %x:0) -> (%x_capture:0):",
        "        %x_capture:0: float32[] = Placeholder(dtype=float32, shape=[])"]


def test_multi_output_ops_list_every_output():
    g = Graph()
    with g.as_default():
        while_loop(lambda i, s: m.less(i, 3), lambda i, s: (m.add(i, 1), m.add(s, 0.5)),
                   (0, 0.0), maximum_iterations=5)
    (line,) = [line for line in g.as_text().splitlines() if "= While(" in line]
    assert line.startswith("%While:0: int32[], %While:1: float32[] = While(%Const:0, %Const_1:0")
    assert "maximum_iterations=5" in line


def test_empty_graph():
    assert Graph().as_text() == "(empty graph)"
