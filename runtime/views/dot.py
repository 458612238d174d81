"""Graphviz DOT text of a graph (`Graph.to_dot()`): the picture of what was traced.

Contract of `graph_to_dot(graph, collapse=False) -> str`, attached as `Graph.to_dot`:
- One node per op (the structure of `graph_view`: node ids are its paths, such as
  `While/body/If/then/Add`). The label holds the op type, the op's name when it says more
  than the type, a Const's value when it is small (`graph_text.format_value`), and the
  user's `file:line` (the file's base name; the tooltip has the full path and the op's
  text form).
- Edges are labelled with the tensor's type, `int32[?]`, prefixed with `:i` when the
  producing op has several outputs. Control dependencies are dashed, without a label.
- Each op with subgraphs is a cluster holding the op and one nested cluster per subgraph
  (`then`/`else` of an If, `cond`/`body` of a While), so nesting is visible;
  `collapse=True` draws one node per such op instead, labelled with the number of ops
  each subgraph holds.
- Placeholders (inputs) are ellipses; stateful ops (prints, asserts, variable updates, and
  the Stateful If/While that hold them) have a red double border.
- The text depends only on the graph (no ids, no addresses), so it can be compared.
"""

import os
import re

from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.views.text import format_op, format_type, format_value
from autograph_py.runtime.views.view import count_ops, subgraphs, view

FONT = "Helvetica"
_CLUSTER_FILL = {"If": "#fff6d5", "While": "#e3effc"}
_OTHER_CLUSTER_FILL = "#f0f0f0"
# `Add_3` is the graph's fourth default-named Add: its name says no more than its type.
_GENERATED_SUFFIX = re.compile(r"_\d+$")


def graph_to_dot(graph, collapse=False):
    name = graph.name if isinstance(graph, FuncGraph) else "graph"
    lines = [f"digraph {quote_id(name)} {{",
             f'  graph [rankdir=TB, compound=true, fontname="{FONT}", fontsize=11, '
             'nodesep=0.25, ranksep=0.3];',
             f'  node [shape=box, style="rounded,filled", fillcolor="#ffffff", '
             f'fontname="{FONT}", fontsize=10];',
             f'  edge [fontname="{FONT}", fontsize=8, color="#555555", fontcolor="#333333"];']
    root = view(graph, collapse)
    edges = []
    _block_lines(root, "  ", lines, edges)
    lines += edges
    lines.append("}")
    return "\n".join(lines) + "\n"


def quote(text):
    """`text` as a quoted DOT label or tooltip: Graphviz reads backslashes there as escapes
    (`\\n` a centered line break), so a backslash is doubled."""
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def quote_id(text):
    """`text` as a quoted DOT id: there only `\\"` is an escape, other backslashes stay."""
    return '"' + str(text).replace('"', '\\"') + '"'


def _block_lines(block, indent, lines, edges):
    for node in block.nodes:
        if node.blocks:
            lines.append(f"{indent}subgraph {quote_id('cluster_' + node.path)} {{")
            lines.append(f"{indent}  label={quote(_cluster_label(node.op))}; "
                         f'style="rounded,filled"; fillcolor="{_cluster_fill(node.op)}"; '
                         'color="#888888";')
            lines.append(indent + "  " + _node_line(node))
            for sub in node.blocks:
                lines.append(f"{indent}  subgraph {quote_id('cluster_' + sub.path)} {{")
                lines.append(f"{indent}    label={quote(sub.part)}; "
                             'style="rounded,dashed,filled"; fillcolor="#ffffff"; '
                             'color="#666666";')
                _block_lines(sub, indent + "    ", lines, edges)
                lines.append(f"{indent}  }}")
            lines.append(f"{indent}}}")
        else:
            lines.append(indent + _node_line(node))
        edges.extend("  " + _edge_line(edge, node) for edge in node.edges)


def _node_line(node):
    op = node.op
    attrs = {"label": _node_label(op), "tooltip": _tooltip(op)}
    if op.type == "Placeholder":
        attrs.update(shape="ellipse", fillcolor="#e6f4e6")
    elif op.type == "Const":
        attrs.update(fillcolor="#f4f4f4", fontcolor="#444444")
    elif any(True for _ in subgraphs(op)):
        attrs.update(shape="box3d" if not node.blocks else "box", fillcolor=_cluster_fill(op))
    if op.stateful:
        attrs.update(color="#c0392b", peripheries="2", penwidth="1.5")
    return f"{quote_id(node.path)} [{_attr_list(attrs)}];"


def _edge_line(edge, node):
    head = f"{quote_id(edge.source)} -> {quote_id(node.path)}"
    if edge.kind == "control":
        return f'{head} [style=dashed, arrowhead=odot, color="#999999"];'
    tensor = edge.tensor
    label = format_type(tensor.shape, tensor.dtype)
    if len(tensor.op.outputs) > 1:
        label = f":{tensor.value_index} {label}"
    return f"{head} [{_attr_list({'label': label, 'tooltip': tensor.name})}];"


def _attr_list(attrs):
    return ", ".join(f"{key}={quote(value)}" for key, value in attrs.items())


def _node_label(op):
    lines = [op.type]
    if not _name_is_generated(op):
        lines.append(op.name)
    if op.type == "Const" and "value" in op.attrs:
        lines.append(format_value(op.attrs["value"]))
    parts = [f"{part}: {_ops_count(sub)}" for part, sub in subgraphs(op)]
    if parts:
        lines.append(", ".join(parts))
    if op.location is not None:
        lines.append(f"{os.path.basename(op.location[0])}:{op.location[1]}")
    return "\n".join(lines)


def _ops_count(graph):
    count = count_ops(graph)
    return f"{count} op" if count == 1 else f"{count} ops"


def _cluster_label(op):
    where = f" ({os.path.basename(op.location[0])}:{op.location[1]})" if op.location else ""
    return f"{op.type}{'' if _name_is_generated(op) else ' ' + op.name}{where}"


def _name_is_generated(op):
    return _GENERATED_SUFFIX.sub("", op.name.rpartition("/")[2]) == op.type


def _cluster_fill(op):
    return _CLUSTER_FILL.get(op.type.removeprefix("Stateful"), _OTHER_CLUSTER_FILL)


def _tooltip(op):
    text = format_op(op)
    if op.location is not None:
        text += f"\n{op.location[0]}:{op.location[1]}"
    return text


# Attached here so that graph.py never imports this module (it sits below it).
Graph.to_dot = graph_to_dot
