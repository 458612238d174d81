"""Graphs to draw, traced the two ways a user gets one, and the picture contract's names.

- `traced(mode, fn, specs)`: mode `function` is `ag.function(fn)`'s ConcreteFunction
  graph; mode `graph` is `ag.to_graph(fn)` called on placeholders in a plain `Graph`
  (the one a Session runs; `run` runs it, so tests can check it is the real one).
  Eager execution builds no graph, so it has nothing to draw.
- `expected_ops(graph)`: (path, op, innermost cluster) for every op, nested ones
  included, written from the contract of docs/visualize.md, not from the implementation:
  a subgraph's ops are named `<op path>/<part>/<op name>` (part: the attr name without
  `_graph`), and an op with subgraphs sits in its own cluster `cluster_<op path>`.
"""

import dataclasses

import numpy as np
from autograph_py.runtime.graph import FuncGraph

import autograph_py as ag

MODES = ("function", "graph")


@dataclasses.dataclass
class Traced:
    graph: object
    inputs: list
    outputs: object


def traced(mode, fn, specs):
    if mode == "function":
        concrete = ag.function(fn).get_concrete_function(*specs)
        return Traced(concrete.graph, concrete.inputs, concrete.outputs)
    graph = ag.Graph()
    with graph.as_default():
        inputs = [ag.placeholder(s.dtype, shape=s.shape.dims) for s in specs]
        return Traced(graph, inputs, ag.to_graph(fn)(*inputs))


def run(traced_graph, *values):
    """The graph-mode result for `values` (Session.run)."""
    with ag.Session(graph=traced_graph.graph) as sess:
        return sess.run(traced_graph.outputs, feed_dict=dict(zip(traced_graph.inputs, values)))


def parts(op):
    for key, value in op.attrs.items():
        if isinstance(value, FuncGraph):
            yield key.removesuffix("_graph"), value


def expected_ops(graph, prefix="", cluster=None):
    for op in graph.get_operations():
        path = prefix + op.name
        sub = list(parts(op))
        yield path, op, (f"cluster_{path}" if sub else cluster)
        for part, body in sub:
            yield from expected_ops(body, f"{path}/{part}/", f"cluster_{path}/{part}")


def expected_clusters(graph, parent=None, prefix=""):
    """{cluster: the cluster holding it}: an op's cluster sits in the cluster of the
    subgraph holding the op (None at the top level), a part's cluster in its op's."""
    clusters = {}
    for op in graph.get_operations():
        own = f"cluster_{prefix}{op.name}"
        for part, body in parts(op):
            clusters[own] = parent
            clusters[f"{own}/{part}"] = own
            clusters.update(expected_clusters(body, f"{own}/{part}", f"{prefix}{op.name}/{part}/"))
    return clusters


def type_text(tensor):
    """`int32[?]`: a tensor's dtype and dims as the pictures write them."""
    dims = tensor.shape.dims
    shape = "[...]" if dims is None else "[" + ", ".join(
        "?" if d is None else str(d) for d in dims) + "]"
    return tensor.dtype.name + shape


def as_int(value):
    return int(np.asarray(value))
