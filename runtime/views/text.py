"""A readable text form of a graph, one line per operation (like torch.fx's printed graph).

Contract: `graph_to_text(graph)` returns lines of the form

    %Add:0: float32[2, 2] = Add(%x:0, %Square:0)
    %AssignAddVariable:0: int32[] = AssignAddVariable(%Const:0, ^ReadVariable, var=Variable('v'))

- outputs: `%name:i: dtype[dims]` (`?` for an unknown dim, `[...]` for an unknown rank);
  several outputs are separated by commas, an op without outputs prints `%name: ()`;
- arguments: data inputs by tensor name, then control inputs as `^op_name`, then attrs
  as `key=value`: small arrays inline, large ones as `<dtype[dims]>`, DTypes by name,
  shapes as dims, `(shape, dtype)` specs as types, subgraphs as `@name`, Variables by name;
- subgraphs (branch and loop bodies of If/While) are printed indented below their op,
  under a header `name(inputs) -> (outputs):` where a captured input shows its source
  (`%x_capture:0 <- %x:0`).

The form is deterministic (no ids or addresses), so tests can compare it verbatim.
"""

import numpy as np
from autograph_py.runtime.dtypes import DType, as_dtype
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.variables import Variable

INDENT = "    "
# Arrays with more elements print as a shape/dtype summary: a line should stay readable.
MAX_INLINE_ELEMENTS = 8


def graph_to_text(graph):
    lines = _subgraph_lines(graph, "") if isinstance(graph, FuncGraph) else \
        _graph_lines(graph, "")
    return "\n".join(lines) if lines else "(empty graph)"


def format_type(shape, dtype):
    """`float32[2, ?]` for a tensor spec."""
    return f"{dtype.name}{format_shape(shape)}"


def format_shape(shape):
    if shape.dims is None:
        return "[...]"
    return "[" + ", ".join("?" if d is None else str(d) for d in shape.dims) + "]"


def format_op(op):
    """The one-line text of `op` (without its subgraphs)."""
    if op.outputs:
        lhs = ", ".join(f"%{t.name}: {format_type(t.shape, t.dtype)}" for t in op.outputs)
    else:
        lhs = f"%{op.name}: ()"
    args = [f"%{t.name}" for t in op.inputs]
    args += [f"^{c.name}" for c in op.control_inputs]
    args += [f"{key}={format_value(value)}" for key, value in op.attrs.items()]
    return f"{lhs} = {op.type}({', '.join(args)})"


def format_value(value):
    if isinstance(value, Graph):
        return f"@{getattr(value, 'name', 'graph')}"
    if isinstance(value, np.ndarray):
        return _format_array(value)
    if isinstance(value, DType):
        return value.name
    if isinstance(value, TensorShape):
        return format_shape(value)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], TensorShape) \
            and isinstance(value[1], DType):
        return format_type(*value)
    if isinstance(value, list):
        return "[" + ", ".join(map(format_value, value)) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(map(format_value, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Variable):
        return f"Variable({value.name!r})"
    return repr(value)


def _format_array(array):
    if array.size > MAX_INLINE_ELEMENTS:
        return f"<{format_type(TensorShape(array.shape), as_dtype(array.dtype))}>"
    if array.ndim == 0:
        return repr(array.item())
    return np.array2string(array, separator=", ").replace("\n", "")


def _graph_lines(graph, indent):
    lines = []
    for op in graph.get_operations():
        lines.append(indent + format_op(op))
        for sub in _subgraphs(op.attrs.values()):
            lines.extend(_subgraph_lines(sub, indent + INDENT))
    return lines


def _subgraph_lines(graph, indent):
    sources = {id(inner): outer for outer, inner in graph.captures}
    inputs = ", ".join(f"%{t.name}" + (f" <- %{sources[id(t)].name}" if id(t) in sources else "")
                       for t in graph.inputs)
    outputs = ", ".join(f"%{t.name}" for t in graph.outputs)
    header = f"{indent}{graph.name}({inputs}) -> ({outputs}):"
    return [header] + _graph_lines(graph, indent + INDENT)


def _subgraphs(values):
    for value in values:
        if isinstance(value, Graph):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from _subgraphs(value)


# Attached here so that graph.py never imports this module (it sits below it).
Graph.as_text = graph_to_text
Graph.__str__ = graph_to_text
