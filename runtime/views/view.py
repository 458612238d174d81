"""A graph as pictures draw it: nested blocks of ops with named paths and incoming edges.

Contract of `view(graph, collapse=False) -> Block` (read by `graph_dot` and by
`autograph_py.summary`, so DOT and TensorBoard show one structure):
- A `Block` is one graph: the top level (`path` "") or a subgraph of an op (a branch of
  an `If`, the `cond`/`body` of a `While`, ...). Its `nodes` are its ops in graph order.
- A `Node` is one op. `path` names it uniquely in the whole picture: the op's name at the
  top level, `<op path>/<part>/<name>` inside a subgraph (`While/body/If/then/Add`), where
  `part` is the subgraph's attr name without `_graph` (`then`, `else`, `cond`, `body`).
  `blocks` are its subgraphs, in attr order; none when `collapse` is true (the op stands
  for its whole subgraph).
- `edges` are a node's incoming edges, each from the `source` path of the producing op:
  - `data`: an input of the op. When the op's subgraphs are drawn, an input that feeds a
    subgraph's placeholder is drawn to that placeholder instead (the data goes there);
  - `feed`: into a subgraph's input placeholder, from the outer tensor that feeds it: the
    tensor a capture captured, or for a loop variable or a call argument the op's input at
    the same position (While: its first `num_vars` inputs, Call: all);
  - `result`: from each output of the op's drawn subgraphs to the op (the op's outputs are
    its subgraphs' outputs);
  - `control`: a control dependency (no tensor).
  Every edge's source is a node of the picture: tensors from outside it are left out.
"""

import dataclasses

from autograph_py.runtime.graph import FuncGraph


@dataclasses.dataclass
class Edge:
    source: str
    tensor: object  # the SymbolicTensor carried; None for a control edge
    kind: str       # "data", "feed", "result" or "control"


@dataclasses.dataclass
class Node:
    op: object
    path: str
    edges: list
    blocks: list


@dataclasses.dataclass
class Block:
    path: str
    part: str
    graph: object
    nodes: list


def view(graph, collapse=False):
    return _Viewer(collapse).block(graph, "", "", {})


def subgraphs(op):
    """`(part, graph)` for each subgraph attr of `op`, in attr order."""
    for key, value in op.attrs.items():
        if isinstance(value, FuncGraph):
            yield key.removesuffix("_graph"), value


def count_ops(graph):
    """The number of ops in `graph`, its subgraphs' included."""
    return sum(1 + sum(count_ops(sub) for _, sub in subgraphs(op))
               for op in graph.get_operations())


# Ops whose subgraphs' explicit (non-captured) inputs are fed, in order, by these inputs.
_EXPLICIT_FEEDS = {
    "While": lambda op: op.inputs[:op.attrs["num_vars"]],
    "Call": lambda op: op.inputs,
}


def input_sources(op, graph):
    """`(placeholder, outer tensor or None)` for each input of `op`'s subgraph `graph`."""
    captured = {id(inner): outer for outer, inner in graph.captures}
    explicit = iter(_EXPLICIT_FEEDS.get(op.type, lambda _: ())(op))
    pairs = []
    for placeholder in graph.inputs:
        outer = captured.get(id(placeholder))
        if outer is None:
            outer = next(explicit, None)
        pairs.append((placeholder, outer if outer is not None and outer.graph is op.graph
                      else None))
    return pairs


class _Viewer:
    def __init__(self, collapse):
        self.collapse = collapse
        self.paths = {}  # id(op) -> path, for every op drawn so far

    def block(self, graph, path, part, feeds):
        """`feeds` maps id(placeholder op) to the edge that feeds it from outside."""
        prefix = f"{path}/" if path else ""
        block = Block(path, part, graph, [])
        for op in graph.get_operations():
            node = Node(op, prefix + op.name, [], [])
            self.paths[id(op)] = node.path
            block.nodes.append(node)
            if id(op) in feeds:
                node.edges.append(feeds[id(op)])
            parts = [] if self.collapse else list(subgraphs(op))
            sub_feeds = {id(placeholder.op): self.edge(outer, "feed")
                         for _, sub in parts for placeholder, outer in input_sources(op, sub)
                         if outer is not None and id(outer.op) in self.paths}
            fed = {id(edge.tensor) for edge in sub_feeds.values()}
            node.edges += [self.edge(t, "data") for t in op.inputs
                           if id(t) not in fed and id(t.op) in self.paths]
            node.edges += [Edge(self.paths[id(c)], None, "control") for c in op.control_inputs
                           if id(c) in self.paths]
            for sub_part, sub in parts:
                node.blocks.append(self.block(sub, f"{node.path}/{sub_part}", sub_part,
                                              sub_feeds))
                node.edges += [self.edge(t, "result") for t in sub.outputs]
        return block

    def edge(self, tensor, kind):
        return Edge(self.paths[id(tensor.op)], tensor, kind)
