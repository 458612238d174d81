"""A graph as the `GraphDef` protobuf that TensorBoard's graph dashboard reads.

Contract of `to_graph_def(graph) -> GraphDef` (the `tensorboard` package's own protobuf
classes; TensorFlow is not needed):
- One `NodeDef` per op, nested ops included (the structure of `runtime.views.view`): an
  op inside a subgraph is named by its path, `While/body/If/then/Add`, so TensorBoard
  draws each `If` branch and `While` cond/body as a name scope inside the op's scope.
- `op` is our op type; `input` lists the edges that the DOT picture draws: data inputs,
  feeds into a subgraph's placeholders, the results of an op's subgraphs (`name:i` for
  output i > 0), then control inputs as `^name`.
- Attrs: each op attr converted (dtypes, shapes, numbers, strings, arrays as tensors,
  subgraphs as the name of their scope, anything else as its text form), plus
  `_output_shapes` (TensorBoard labels edges with them) and `location`: the user's
  `file:line` that created the op.
"""

import numpy as np
from tensorboard.compat.proto import (
    attr_value_pb2,
    graph_pb2,
    node_def_pb2,
    tensor_pb2,
    tensor_shape_pb2,
    types_pb2,
)

from autograph_py.runtime.dtypes import DType, as_dtype
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.views.text import format_value
from autograph_py.runtime.views.view import view

_DATA_TYPES = {"float16": types_pb2.DT_HALF, "float32": types_pb2.DT_FLOAT,
               "float64": types_pb2.DT_DOUBLE, "int8": types_pb2.DT_INT8,
               "int16": types_pb2.DT_INT16, "int32": types_pb2.DT_INT32,
               "int64": types_pb2.DT_INT64, "uint8": types_pb2.DT_UINT8,
               "bool": types_pb2.DT_BOOL, "string": types_pb2.DT_STRING}


def to_graph_def(graph):
    graph_def = graph_pb2.GraphDef()
    _add_block(view(graph), graph_def)
    return graph_def


def _add_block(block, graph_def):
    for node in block.nodes:
        graph_def.node.append(_node_def(node))
        for sub in node.blocks:
            _add_block(sub, graph_def)


def _node_def(node):
    op = node.op
    node_def = node_def_pb2.NodeDef(name=node.path, op=op.type)
    node_def.input.extend(_input_name(edge) for edge in node.edges if edge.kind != "control")
    node_def.input.extend(f"^{edge.source}" for edge in node.edges if edge.kind == "control")
    scopes = {id(sub.graph): sub.path for sub in node.blocks}
    for key, value in op.attrs.items():
        node_def.attr[key].CopyFrom(_attr_value(value, scopes))
    node_def.attr["_output_shapes"].list.shape.extend(_shape_proto(t.shape) for t in op.outputs)
    if op.location is not None:
        node_def.attr["location"].s = f"{op.location[0]}:{op.location[1]}".encode()
    return node_def


def _input_name(edge):
    index = edge.tensor.value_index
    return edge.source if index == 0 else f"{edge.source}:{index}"


def _attr_value(value, scopes):
    attr = attr_value_pb2.AttrValue()
    if isinstance(value, DType):
        attr.type = _DATA_TYPES[value.name]
    elif isinstance(value, TensorShape):
        attr.shape.CopyFrom(_shape_proto(value))
    elif isinstance(value, (bool, np.bool_)):
        attr.b = bool(value)
    elif isinstance(value, (int, np.integer)):
        attr.i = int(value)
    elif isinstance(value, (float, np.floating)):
        attr.f = float(value)
    elif isinstance(value, str):
        attr.s = value.encode()
    elif isinstance(value, np.ndarray) and value.dtype != object:
        attr.tensor.CopyFrom(_tensor_proto(value))
    elif id(value) in scopes:
        attr.func.name = scopes[id(value)]  # the name scope its ops are drawn in
    elif isinstance(value, (list, tuple)) and value and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        attr.list.i.extend(value)
    else:
        attr.s = format_value(value).encode()
    return attr


def _shape_proto(shape):
    if shape.dims is None:
        return tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return tensor_shape_pb2.TensorShapeProto(dim=[
        tensor_shape_pb2.TensorShapeProto.Dim(size=-1 if d is None else d) for d in shape.dims])


def _tensor_proto(array):
    return tensor_pb2.TensorProto(
        dtype=_DATA_TYPES[as_dtype(array.dtype).name],
        tensor_shape=_shape_proto(TensorShape(array.shape)),
        tensor_content=np.ascontiguousarray(array).tobytes())
