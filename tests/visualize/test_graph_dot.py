"""`Graph.to_dot()`, checked on the picture as Graphviz reads it (tests/visualize/rendered.py).

Oracles: the graph itself (every op, input, control input and subgraph), the markers in
programs.py for the user's lines, Python for what the drawn graph computes. Both ways of
getting a graph are drawn: ag.function's ConcreteFunction graph and a Session graph
built by ag.to_graph on placeholders (eager execution builds no graph to draw).
"""

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import autograph_py as ag
from tests.converters.corpus import sum_even
from tests.visualize import programs
from tests.visualize.rendered import parse, render
from tests.visualize.traced import (
    MODES,
    expected_clusters,
    expected_ops,
    parts,
    run,
    traced,
    type_text,
)

INT = ag.TensorSpec([], ag.int32)
CASES = {
    "sum_even": (sum_even, [ag.TensorSpec([None], ag.int32)], [np.array([10, 12, 15, 20])]),
    "nested_loops": (programs.nested_loops, [INT], [7]),
    "noisy_countdown": (programs.noisy_countdown, [INT], [3]),
}


@pytest.fixture(params=[(mode, case) for mode in MODES for case in CASES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def drawn(request, capfd):
    mode, case = request.param
    fn, specs, values = CASES[case]
    result = traced(mode, fn, specs)
    if mode == "graph":  # the graph drawn is the graph that computes the function
        assert programs_result(result, values) == fn(*values)
        capfd.readouterr()
    return result.graph, parse(result.graph.to_dot())


def programs_result(result, values):
    return int(np.asarray(run(result, *values)))


def test_one_node_per_op_in_its_innermost_cluster(drawn):
    graph, picture = drawn
    expected = {path: cluster for path, _, cluster in expected_ops(graph)}
    assert set(picture.nodes) == set(expected)
    assert picture.cluster_of == expected


def test_every_cond_and_while_is_a_cluster_of_its_parts_nested_where_it_is(drawn):
    graph, picture = drawn
    assert picture.parent == expected_clusters(graph)
    for path, op, _ in expected_ops(graph):
        for part, _ in parts(op):
            assert picture.clusters[f"cluster_{path}/{part}"]["label"] == part


def test_labels_name_the_op_and_the_users_line(drawn):
    graph, picture = drawn
    for path, op, _ in expected_ops(graph):
        label = picture.nodes[path]["label"]
        assert label.split("\\n")[0] == op.type
        if op.location is not None:
            assert f"{os.path.basename(op.location[0])}:{op.location[1]}" in label
            assert f"{op.location[0]}:{op.location[1]}" in picture.nodes[path]["tooltip"]


@pytest.mark.parametrize("mode", MODES)
def test_user_lines_are_those_of_the_constructs(mode):
    graph = traced(mode, programs.nested_loops, [INT]).graph
    picture = parse(graph.to_dot())
    ops = [(path, op.type.removeprefix("Stateful")) for path, op, _ in expected_ops(graph)]

    def lines(kind, nested):
        return {picture.nodes[path]["label"].split("\\n")[-1] for path, type_ in ops
                if type_ == kind and ("/" in path) == nested}

    def marked(marker):
        return f"programs.py:{programs.marker_line(programs.nested_loops, marker)}"

    assert lines("While", nested=False) == {marked("outer loop")}
    assert lines("While", nested=True) == {marked("inner loop")}
    assert lines("If", nested=True) == {marked("branch")}
    assert lines("Mul", nested=True) == {marked("product")}
    (branch,) = [path for path, type_ in ops if type_ == "If"]
    assert picture.clusters[f"cluster_{branch}"]["label"].endswith(f" ({marked('branch')})")


def test_edges_carry_the_type_of_their_tensor_and_connect_every_input(drawn):
    graph, picture = drawn
    ops = {path: op for path, op, _ in expected_ops(graph)}
    data = [(tail, head, e) for tail, head, e in picture.edges if e.get("style") != "dashed"]
    for tail, _, edge in data:
        op_name, _, index = edge["tooltip"].rpartition(":")
        tensor = ops[tail].outputs[int(index)]
        assert op_name == tensor.op.name
        prefix = f":{index} " if len(ops[tail].outputs) > 1 else ""
        assert edge["label"] == prefix + type_text(tensor)
    paths = {id(op): path for path, op, _ in expected_ops(graph)}
    for path, op, _ in expected_ops(graph):
        # Each input reaches the op, or a node inside the op's cluster (a body's input).
        inside = {p for p in ops if p == path or p.startswith(path + "/")}
        for tensor in op.inputs:
            assert any(tail == paths[id(tensor.op)] and head in inside
                       for tail, head, _ in data), (path, tensor.name)


def test_control_dependencies_are_dashed_edges_and_stateful_ops_stand_out(drawn):
    graph, picture = drawn
    paths = {id(op): path for path, op, _ in expected_ops(graph)}
    control = sorted((paths[id(c)], path) for path, op, _ in expected_ops(graph)
                     for c in op.control_inputs)
    dashed = sorted((t, h) for t, h, e in picture.edges if e.get("style") == "dashed")
    assert dashed == control
    stateful = {path for path, op, _ in expected_ops(graph) if op.stateful}
    assert {name for name, n in picture.nodes.items() if n.get("peripheries") == "2"} \
        == stateful


def test_the_countdown_is_stateful_with_its_print_inside():
    graph = traced("function", programs.noisy_countdown, [INT]).graph
    picture = parse(graph.to_dot())
    (loop,) = [op for op in graph.get_operations() if op.type.endswith("While")]
    assert loop.stateful and picture.nodes[loop.name]["peripheries"] == "2"
    (printed,) = [path for path, op, _ in expected_ops(graph) if op.type == "PrintV2"]
    assert picture.cluster_of[printed] == f"cluster_{loop.name}/body"
    assert picture.nodes[printed]["peripheries"] == "2"
    readers = [op.name for op in graph.get_operations() if loop in op.control_inputs]
    assert readers and all((loop.name, reader) in [(t, h) for t, h, e in picture.edges
                                                   if e.get("style") == "dashed"]
                           for reader in readers)


def _count(graph):
    return sum(1 + sum(_count(body) for _, body in parts(op)) for op in graph.get_operations())


@pytest.mark.parametrize("mode", MODES)
def test_collapse_draws_one_node_per_cond_and_while(mode):
    graph = traced(mode, programs.nested_loops, [INT]).graph
    picture = parse(graph.to_dot(collapse=True))
    assert picture.clusters == {}
    assert set(picture.nodes) == {op.name for op in graph.get_operations()}
    (loop,) = [op for op in graph.get_operations() if op.type.endswith("While")]
    counts = [f"{part}: {_count(body)} ops" for part, body in parts(loop)]
    assert ", ".join(counts) in picture.nodes[loop.name]["label"]
    inputs = sorted(t.op.name for t in loop.inputs)
    assert sorted(t for t, h, _ in picture.edges if h == loop.name) == inputs


def test_small_constants_show_their_value_large_ones_their_type():
    def scaled(x):
        return x * ag.constant([1.0, 2.0, 3.0]) + ag.constant(np.zeros(100, np.float32)[:3])

    graph = traced("function", scaled, [ag.TensorSpec([3], ag.float32)]).graph
    picture = parse(graph.to_dot())
    labels = [picture.nodes[op.name]["label"] for op in graph.get_operations()
              if op.type == "Const"]
    assert any("\\n[1., 2., 3.]\\n" in label for label in labels), labels


def test_svg_rendering_accepts_it_and_titles_every_op():
    graph = traced("function", programs.nested_loops, [INT]).graph
    svg = ET.fromstring(render(graph.to_dot(), "svg"))
    assert svg.tag.endswith("svg")
    titles = {el.text for el in svg.iter() if el.tag.endswith("title")}
    assert {path for path, _, _ in expected_ops(graph)} <= titles


def test_names_that_need_quoting_survive():
    def f(x):
        with ag.name_scope("layer.a-b"):
            return ag.identity(x, name='say "hi" \\o/') + 1.0

    graph = traced("function", f, [ag.TensorSpec([], ag.float32)]).graph
    picture = parse(graph.to_dot())
    assert {path for path, _, _ in expected_ops(graph)} == set(picture.nodes)
    assert 'layer.a-b/say "hi" \\o/' in picture.nodes
