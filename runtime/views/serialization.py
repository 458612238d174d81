"""Graphs to plain JSON-serializable dicts and back.

Contract:
- `graph_to_dict(graph)` returns a dict made of dicts, lists, strings, numbers, bools and
  None only (`json.dumps` accepts it). `graph_from_dict(d)` rebuilds an equivalent graph:
  the same ops (looked up in the registry by type) in the same order, with the same names,
  inputs, control inputs, attrs, static shapes and dtypes, so `as_text()` is identical
  and a Session computes the same values. Op locations (the user's file:line) are kept,
  so errors from a rebuilt graph still point at the code that built the original.
- Layout: `{"format", "version", "graph", "variables"}`. A graph is
  `{"ops", "variables", "control_dependencies_chain", "lift_variables"}`, plus `name`,
  `inputs`, `outputs` and `captures` (pairs of outer/inner tensor names) for a
  FuncGraph. An op is
  `{"name", "type", "inputs", "control_inputs", "attrs", "outputs", "location"}` with
  tensors named `op:index`.
- Attrs: JSON scalars, lists and None are stored as is; everything else is an object with
  a `kind`: `ndarray` (dtype, shape, nested lists; 0-d and empty arrays included),
  `scalar` (a numpy scalar), `dtype`, `shape` (dims or null), `tuple`, `dict`, `slice`,
  `ellipsis`, `graph` (a FuncGraph, recursively; its captures re-linked to the tensors of
  the graph holding the op) and `variable` (by name). Any other attr is a TypeError naming
  the op and attr.
- Variables: a variable created in a serialized graph is stored with that graph (name and
  the name of its initial-value tensor) and recreated there, once, right after that
  tensor's op. A variable created eagerly is stored in the top-level `variables` with its
  current value and recreated eagerly. Each name is recreated once, under the same name.
"""

import contextlib

import numpy as np
from autograph_py.runtime import context
from autograph_py.runtime.dtypes import DType, as_dtype
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.registry import get
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.variables import Variable

FORMAT = "autograph_py.graph"
VERSION = 1
# Version-1 files may name a loop with side effects `StatefulWhile`: it is `While`, which
# is always stateful, so they read as such.
READ_AS = {"StatefulWhile": "While"}


def graph_to_dict(graph):
    if isinstance(graph, FuncGraph) and graph.captures:
        raise ValueError(f"cannot serialize {graph.name} on its own: it captures tensors of "
                         "its outer graph; serialize the outermost graph instead")
    encoder = _Encoder()
    body = encoder.graph(graph)
    return {"format": FORMAT, "version": VERSION, "graph": body,
            "variables": encoder.eager_variables()}


def graph_from_dict(data, variables=None):
    """`variables` (name -> eager Variable): Variables the graph refers to that exist
    already (several graphs sharing state, a saved model's); they are used as they are."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a serialized graph: expected a dict with format {FORMAT!r}")
    if data.get("version") != VERSION:
        raise ValueError(f"unsupported serialized graph version {data.get('version')!r} "
                         f"(this runtime reads version {VERSION})")
    return _Decoder(data["variables"], variables).graph(data["graph"], None, {})


# --- encoding --------------------------------------------------------------------------------


def encode_array(array):
    return {"kind": "ndarray", "dtype": as_dtype(array.dtype).name, "shape": list(array.shape),
            "value": array.tolist()}


def decode_array(data):
    np_dtype = as_dtype(data["dtype"]).np_dtype
    # The shape is stored apart because nested lists lose it for empty arrays.
    return np.array(data["value"], dtype=np_dtype).reshape(data["shape"])


def _tensor_spec(t):
    return {"dtype": t.dtype.name, "shape": None if t.shape.dims is None else list(t.shape.dims)}


class _Encoder:
    def __init__(self):
        self.variables = {}     # name -> Variable referenced by any op
        self.owned = set()      # ids of variables stored with their graph

    def graph(self, graph):
        data = {"ops": [self.op(op) for op in graph.get_operations()],
                "variables": [self.owned_variable(v, graph) for v in graph.variables],
                "control_dependencies_chain": graph.control_dependencies_chain,
                "lift_variables": graph.lift_variables}
        if isinstance(graph, FuncGraph):
            data.update(name=graph.name, inputs=[t.name for t in graph.inputs],
                        outputs=[t.name for t in graph.outputs],
                        captures=[[outer.name, inner.name] for outer, inner in graph.captures])
        return data

    def op(self, op):
        return {"name": op.name, "type": op.type, "inputs": [t.name for t in op.inputs],
                "control_inputs": [c.name for c in op.control_inputs],
                "attrs": {key: self.value(value, op, key) for key, value in op.attrs.items()},
                "outputs": [_tensor_spec(t) for t in op.outputs],
                "location": None if op.location is None else list(op.location)}

    def owned_variable(self, var, graph):
        initial = var.initial_value
        if getattr(initial, "graph", None) is not graph:
            raise ValueError(f"cannot serialize variable {var.name!r}: its initial value is "
                             "not a tensor of its graph")
        self.reference(var)
        self.owned.add(id(var))
        return {"name": var.name, "initial_value": initial.name, "dtype": var.dtype.name,
                "trainable": var.trainable}

    def reference(self, var):
        known = self.variables.setdefault(var.name, var)
        if known is not var:
            raise ValueError(f"two different variables are named {var.name!r}; names must "
                             "identify variables in a serialized graph")
        return {"kind": "variable", "name": var.name}

    def eager_variables(self):
        entries = []
        for name, var in self.variables.items():
            if id(var) in self.owned:
                continue
            if var.graph is not None:
                raise ValueError(f"variable {name!r} belongs to a graph that is not being "
                                 "serialized")
            entries.append({"name": name, "value": encode_array(var.numpy()),
                            "trainable": var.trainable})
        return entries

    def value(self, value, op, key):
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, np.ndarray):
            return encode_array(value)
        if isinstance(value, np.generic):
            return {"kind": "scalar", "dtype": as_dtype(value.dtype).name, "value": value.item()}
        if isinstance(value, DType):
            return {"kind": "dtype", "name": value.name}
        if isinstance(value, TensorShape):
            return {"kind": "shape", "dims": None if value.dims is None else list(value.dims)}
        if isinstance(value, list):
            return [self.value(v, op, key) for v in value]
        if isinstance(value, tuple):
            return {"kind": "tuple", "items": [self.value(v, op, key) for v in value]}
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {"kind": "dict", "items": {k: self.value(v, op, key) for k, v in value.items()}}
        if isinstance(value, slice):
            return {"kind": "slice", "items": [self.value(v, op, key)
                                               for v in (value.start, value.stop, value.step)]}
        if value is Ellipsis:
            return {"kind": "ellipsis"}
        if isinstance(value, FuncGraph):
            return {"kind": "graph", "graph": self.graph(value)}
        if isinstance(value, Variable):
            return self.reference(value)
        raise TypeError(f"cannot serialize attr {key!r} of op {op.name!r} ({op.type}): "
                        f"unsupported value of type {type(value).__name__}")


# --- decoding --------------------------------------------------------------------------------


@contextlib.contextmanager
def _no_default_graph():
    """Eager variables must be created eagerly even if the caller is building a graph."""
    stack = context.graph_stack()
    saved = stack[:]
    stack.clear()
    try:
        yield
    finally:
        stack[:] = saved


class _Decoder:
    def __init__(self, eager_variables, shared=None):
        self.variables = dict(shared or {})
        with _no_default_graph():
            for entry in eager_variables:
                self.create_variable(entry, decode_array(entry["value"]))

    def create_variable(self, entry, initial_value):
        name = entry["name"]
        if name in self.variables:
            raise ValueError(f"variable {name!r} is defined twice")
        var = Variable(initial_value, trainable=entry["trainable"], name=name)
        var.name = name  # Variable() suffixes names already in use; keep the stored one
        self.variables[name] = var

    def graph(self, data, outer, outer_tensors):
        is_func = "captures" in data
        graph = FuncGraph(data["name"], outer) if is_func else Graph()
        tensors, ops = {}, {}
        pending = {}  # initial-value tensor name -> variables to create once it exists
        for entry in data["variables"]:
            pending.setdefault(entry["initial_value"], []).append(entry)
        # Control inputs are restored exactly as stored, so no automatic chaining now.
        graph.control_dependencies_chain = False
        for op_data in data["ops"]:
            op = self.op(graph, op_data, tensors, ops)
            for t in op.outputs:
                tensors[t.name] = t
                for entry in pending.pop(t.name, ()):
                    with graph.as_default():
                        self.create_variable(entry, t)
        graph.control_dependencies_chain = data["control_dependencies_chain"]
        if data.get("lift_variables"):  # function graphs create their variables eagerly
            graph.lift_variables = True
        if pending:
            raise ValueError(f"initial value tensors {sorted(pending)} of variables are "
                             "missing from the graph")
        if is_func:
            graph.inputs = [_lookup(tensors, n, "input") for n in data["inputs"]]
            graph.outputs = [_lookup(tensors, n, "output") for n in data["outputs"]]
            graph.captures = [(_lookup(outer_tensors, o, "captured tensor"),
                               _lookup(tensors, i, "capture placeholder"))
                              for o, i in data["captures"]]
            # FuncGraph.capture dedupes through this map: keep it right for later captures.
            graph._capture_map = {id(o): i for o, i in graph.captures}
        return graph

    def op(self, graph, data, tensors, ops):
        name = data["name"]
        try:
            opdef = get(READ_AS.get(data["type"], data["type"]))
        except KeyError:
            raise ValueError(f"op {name!r} has type {data['type']!r}, which is not registered; "
                             "import the module that defines it") from None
        inputs = [_lookup(tensors, n, f"input of op {name!r}") for n in data["inputs"]]
        attrs = {key: self.value(value, graph, tensors) for key, value in data["attrs"].items()}
        op = graph.create_op(opdef, inputs, attrs, name=name)
        if op.name != name:
            raise ValueError(f"op name {name!r} appears twice in the serialized graph")
        for control in data["control_inputs"]:
            op.add_control_input(_lookup(ops, control, f"control input of op {name!r}"))
        if len(op.outputs) != len(data["outputs"]):
            raise ValueError(f"op {name!r} has {len(op.outputs)} outputs, the stored graph "
                             f"{len(data['outputs'])}")
        for t, spec in zip(op.outputs, data["outputs"]):
            # Stored shapes may be more specific than inferred ones (set_shape).
            t.set_shape(TensorShape(spec["shape"]))
            if t.dtype.name != spec["dtype"] or t.shape != TensorShape(spec["shape"]):
                raise ValueError(f"op {name!r}: output {t.name} is {t.dtype.name}{t.shape} "
                                 f"when rebuilt but {spec['dtype']}{spec['shape']} when stored")
        if data["location"] is not None:
            op.location = tuple(data["location"])
        ops[name] = op
        return op

    def value(self, data, graph, tensors):
        if isinstance(data, list):
            return [self.value(v, graph, tensors) for v in data]
        if not isinstance(data, dict):
            return data
        kind = data["kind"]
        if kind == "ndarray":
            return decode_array(data)
        if kind == "scalar":
            return as_dtype(data["dtype"]).np_dtype.type(data["value"])
        if kind == "dtype":
            return as_dtype(data["name"])
        if kind == "shape":
            return TensorShape(data["dims"])
        if kind == "tuple":
            return tuple(self.value(v, graph, tensors) for v in data["items"])
        if kind == "dict":
            return {k: self.value(v, graph, tensors) for k, v in data["items"].items()}
        if kind == "slice":
            return slice(*(self.value(v, graph, tensors) for v in data["items"]))
        if kind == "ellipsis":
            return Ellipsis
        if kind == "graph":
            return self.graph(data["graph"], graph, tensors)
        if kind == "variable":
            return _lookup(self.variables, data["name"], "variable")
        raise ValueError(f"unknown attr kind {kind!r} in a serialized graph")


def _lookup(table, name, what):
    try:
        return table[name]
    except KeyError:
        raise ValueError(f"serialized graph refers to {what} {name!r}, which is not defined "
                         "before its use") from None


# Attached here so that graph.py never imports this module (it sits below it).
Graph.as_dict = graph_to_dict
Graph.from_dict = staticmethod(graph_from_dict)
