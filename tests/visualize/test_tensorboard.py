"""`ag.summary.write_graph`: the GraphDef it writes, the event file, and a real TensorBoard
server showing it (started on 127.0.0.1, asked over HTTP, stopped, all within bounded
waits). Oracles: the traced graph itself, and TensorBoard's own readers."""

import json
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

import pytest
from google.protobuf import text_format
from tensorboard.backend.event_processing.event_file_loader import LegacyEventFileLoader
from tensorboard.compat.proto import graph_pb2

import autograph_py as ag
from autograph_py.graph_def import to_graph_def
from tests.converters.corpus import sum_even
from tests.visualize import programs
from tests.visualize.traced import MODES, expected_ops, traced

INT = ag.TensorSpec([], ag.int32)
VECTOR = ag.TensorSpec([None], ag.int32)
SERVER_START_SECONDS = 90
GRAPH_LOAD_SECONDS = 90


def check_graph_def(graph_def, graph, locations=True):
    """`graph_def` has one node per op of `graph`, named by its nested path, typed, with
    the op's output shapes and (`locations`) its location, and every input names a node."""
    nodes = {node.name: node for node in graph_def.node}
    expected = {path: op for path, op, _ in expected_ops(graph)}
    assert set(nodes) == set(expected)
    for path, op in expected.items():
        node = nodes[path]
        assert node.op == op.type
        if locations and op.location is not None:
            assert node.attr["location"].s.decode() == f"{op.location[0]}:{op.location[1]}"
        shapes = node.attr["_output_shapes"].list.shape
        assert [None if s.unknown_rank else [d.size for d in s.dim] for s in shapes] == [
            None if t.shape.dims is None else [-1 if d is None else d for d in t.shape.dims]
            for t in op.outputs]
        for name in node.input:
            source, _, index = name.lstrip("^").partition(":")
            assert source in nodes, (path, name)
            assert int(index or 0) < len(expected[source].outputs) or name.startswith("^")
        assert sorted(i[1:] for i in node.input if i.startswith("^")) == sorted(
            p for p, o in expected.items() if o in op.control_inputs and o.graph is op.graph)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn", [programs.nested_loops, programs.noisy_countdown])
def test_graph_def_has_every_op_under_its_scope(mode, fn):
    graph = traced(mode, fn, [INT]).graph
    check_graph_def(to_graph_def(graph), graph)


def test_subgraph_attrs_name_the_scope_their_ops_are_in():
    graph = traced("function", programs.nested_loops, [INT]).graph
    graph_def = to_graph_def(graph)
    names = {node.name for node in graph_def.node}
    scopes = [attr.func.name for node in graph_def.node for attr in node.attr.values()
              if attr.func.name]
    assert scopes and all(any(n.startswith(scope + "/") for n in names) for scope in scopes)


def test_the_event_file_holds_the_graph(tmp_path):
    cf = ag.function(sum_even).get_concrete_function(VECTOR)
    path = ag.summary.write_graph(tmp_path, cf)
    assert [p.name for p in tmp_path.iterdir()] == [path.rpartition("/")[2]]
    events = list(LegacyEventFileLoader(path).Load())
    assert events[0].file_version == "brain.Event:2"
    (graph_event,) = [e for e in events if e.HasField("graph_def")]
    assert graph_pb2.GraphDef.FromString(graph_event.graph_def) == to_graph_def(cf.graph)


def test_what_write_graph_accepts(tmp_path):
    function = ag.function(sum_even)
    cf = function.get_concrete_function(VECTOR)
    written = [ag.summary.write_graph(tmp_path / "python", sum_even, VECTOR),
               ag.summary.write_graph(tmp_path / "function", function, VECTOR),
               ag.summary.write_graph(tmp_path / "concrete", cf),
               ag.summary.write_graph(tmp_path / "graph", cf.graph)]
    for path, same_trace in zip(written, [False, False, True, True]):
        (event,) = [e for e in LegacyEventFileLoader(path).Load() if e.HasField("graph_def")]
        # A new trace locates its placeholders at its own call (here, write_graph's line).
        check_graph_def(graph_pb2.GraphDef.FromString(event.graph_def), cf.graph, same_trace)
    with pytest.raises(TypeError, match="traced already"):
        ag.summary.write_graph(tmp_path, cf, VECTOR)
    with pytest.raises(TypeError, match="expected a function"):
        ag.summary.write_graph(tmp_path, 42)


# --- a real TensorBoard ----------------------------------------------------------------


class TensorBoard:
    """`tensorboard --logdir LOGDIR` on 127.0.0.1, on a port the system picks (port 0)."""

    def __init__(self, logdir):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tensorboard.main", "--logdir", str(logdir),
             "--host", "127.0.0.1", "--port", "0", "--load_fast=false",
             "--reload_interval", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.url = None
        found = threading.Event()
        threading.Thread(target=self._read, args=(found,), daemon=True).start()
        if not found.wait(SERVER_START_SECONDS) or self.url is None:
            self.stop()
            raise AssertionError("TensorBoard did not start:\n" + "".join(self.lines))

    def _read(self, found):
        for line in self.process.stderr:  # ends when the process does
            self.lines.append(line)
            match = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if match and self.url is None:
                self.url = match.group(0)
                found.set()
        found.set()

    def get(self, route, **query):
        url = self.url + route + ("?" + urllib.parse.urlencode(query) if query else "")
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)


@pytest.fixture
def tensorboard(tmp_path):
    servers = []

    def start(logdir):
        servers.append(TensorBoard(logdir))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
        assert server.process.poll() is not None


def test_tensorboard_serves_our_graph_with_its_scopes(tmp_path, tensorboard):
    runs = {"nested_loops": (programs.nested_loops, INT), "sum_even": (sum_even, VECTOR)}
    graphs = {}
    for run, (fn, spec) in runs.items():
        graphs[run] = ag.function(fn).get_concrete_function(spec).graph
        ag.summary.write_graph(tmp_path / run, graphs[run])
    server = tensorboard(tmp_path)
    deadline = time.monotonic() + GRAPH_LOAD_SECONDS
    while True:
        info = json.loads(server.get("data/plugin/graphs/info"))
        if all(info.get(run, {}).get("run_graph") for run in runs):
            break
        assert time.monotonic() < deadline, f"TensorBoard never listed the graphs: {info}"
        time.sleep(0.5)
    for run, graph in graphs.items():
        answer = graph_pb2.GraphDef()
        text_format.Parse(server.get("data/plugin/graphs/graph", run=run), answer)
        check_graph_def(answer, graph)
        names = {node.name for node in answer.node}
        for path, op, _ in expected_ops(graph):
            if op.type.endswith(("If", "While")):  # each part a name scope with its ops
                parts = {n[len(path) + 1:].partition("/")[0] for n in names
                         if n.startswith(path + "/")}
                assert parts == ({"then", "else"} if op.type.endswith("If") else
                                 {"cond", "body"}), (path, parts)
