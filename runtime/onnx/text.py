"""An ONNX model as indented text, one node a line, as Netron lists a graph.

Contract: `model_text(model) -> str`. The first line is the main graph's signature,
`name(input: dtype[dims], ...) -> (output: dtype[dims], ...)` (an unknown dim is `?`,
an input without a shape `dtype[...]`); then one line per node in the graph's order,
`outputs = OpType(inputs, attr=value, ...)` (an empty input, such as a Loop's missing
trip count, is `""`); a node's graph attribute (`If`'s branches, `Loop`'s body) follows
its node, indented, as a graph of its own (`then_branch: name(...) -> (...)`), and so on
down (an `If`'s `then_branch` before its `else_branch`); a `Cast`'s `to` is a dtype
name. A `Constant`'s value is written as `dtype[dims] value` (its values when it holds
at most 8, else only its type), initializers as `init name: dtype[dims]` lines after the
signature. A line longer than 92 characters is wrapped at its spaces, continued 4 spaces
deeper. The text depends on nothing but the model, so it can be compared in docs.
"""

import textwrap

import numpy as np
from autograph_py.runtime.onnx import require_onnx

_INDENT = "  "
_SMALL = 8  # a tensor attribute with more values than this prints its type only
_WIDTH = 92  # the width of a docs code block


def model_text(model):
    lines = _graph_lines(require_onnx(), model.graph, "")
    return "\n".join(wrapped for line in lines for wrapped in _wrap(line)) + "\n"


def _wrap(line):
    """`line` in lines of at most `_WIDTH` characters where it has spaces to break at,
    each continuation indented `_INDENT` twice past the line's own indent."""
    indent = line[:len(line) - len(line.lstrip())] + _INDENT * 2
    return textwrap.wrap(line, _WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True) or [line]


def _graph_lines(onnx, graph, indent, label=""):
    inputs = ", ".join(_value(onnx, v) for v in graph.input)
    outputs = ", ".join(_value(onnx, v) for v in graph.output)
    lines = [f"{indent}{label}{graph.name}({inputs}) -> ({outputs})"]
    inner = indent + _INDENT
    for tensor in graph.initializer:
        lines.append(f"{inner}init {tensor.name}: {_tensor_type(onnx, tensor)}")
    for node in graph.node:
        attrs, subgraphs = [], []
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                subgraphs.append((attr.name, attr.g))
            elif node.op_type == "Cast" and attr.name == "to":  # a dtype, not its number
                attrs.append(f"to={_dtype_name(onnx, attr.i)}")
            else:
                attrs.append(f"{attr.name}={_attribute(onnx, attr)}")
        arguments = ", ".join([n or '""' for n in node.input] + attrs)
        lines.append(f"{inner}{', '.join(node.output)} = {node.op_type}({arguments})")
        for name, subgraph in sorted(subgraphs, key=_branch_order):
            lines.extend(_graph_lines(onnx, subgraph, inner + _INDENT, f"{name}: "))
    return lines


def _branch_order(item):
    """`then_branch` before `else_branch`, as the `if` reads (ONNX stores them sorted)."""
    return item[0] != "then_branch", item[0]


def _dtype_name(onnx, elem_type):
    return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type)).name


def _value(onnx, info):
    tensor_type = info.type.tensor_type
    dtype = _dtype_name(onnx, tensor_type.elem_type)
    if not tensor_type.HasField("shape"):
        return f"{info.name}: {dtype}[...]"
    dims = ", ".join(str(d.dim_value) if d.HasField("dim_value") else "?"
                     for d in tensor_type.shape.dim)
    return f"{info.name}: {dtype}[{dims}]"


def _tensor_type(onnx, tensor):
    dims = ", ".join(str(d) for d in tensor.dims)
    return f"{_dtype_name(onnx, tensor.data_type)}[{dims}]"


def _attribute(onnx, attr):
    value = onnx.helper.get_attribute_value(attr)
    if attr.type == onnx.AttributeProto.TENSOR:
        array = onnx.numpy_helper.to_array(value)
        text = _tensor_type(onnx, value)
        return f"{text} {array.tolist()}" if array.size <= _SMALL else text
    if isinstance(value, bytes):
        return repr(value.decode())
    return repr(value)
