"""Writing ONNX nodes: the `Emitter` of one ONNX graph, and the walk of one of our graphs.

Contract:
- A `Model` (one per export) owns what the whole model shares: the `onnx` module, the
  value names (unique across the model and its subgraphs, as ONNX requires of names a
  subgraph can see), and the initializers (one per Variable read, named after it).
- An `Emitter` collects the nodes of one ONNX graph (the main graph, or an `If` branch
  or `Loop` body): `node(...)` adds one and returns its output names, `const(array)` a
  `Constant`. `emit_graph(graph, bound)` writes the ops of one of our graphs into it,
  its inputs (placeholders) bound to the given ONNX names, and returns the names of its
  outputs; ops the outputs do not need are not written, but every stateful op is
  (so a print or an assignment is refused, never silently dropped).
- `subgraph(name, inputs, outputs)` closes an emitter into a `GraphProto`; every output
  is a fresh `Identity`, so no graph output is an input or an outer value. The model's
  inputs and outputs must have a known rank (`Model.value_info`), as ONNX's checker
  wants; a branch's or body's may not (typed without a shape).
- Every node is recorded with the op it was written for (`Model.node_ops`), so a node
  the checker rejects is reported at the user's line (model.py).
"""

import re

import numpy as np
from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.onnx.table import ExportError, export_error, rule_for

_UNSAFE = re.compile(r"[^A-Za-z0-9_./\-]")


class Model:
    def __init__(self, onnx):
        self.onnx = onnx
        self.helper = onnx.helper
        self._taken = set()
        self.initializers = []
        self._variables = {}  # id(Variable) -> (Variable, initializer name)
        self.node_ops = {}  # node name -> the op of ours it was written for
        self.current_op = None

    def fresh(self, base):
        base = _UNSAFE.sub("_", base) or "v"
        name, count = base, 1
        while name in self._taken:
            name = f"{base}_{count}"
            count += 1
        self._taken.add(name)
        return name

    def elem_type(self, dtype, op=None):
        np_dtype = np.dtype(dtype.np_dtype)
        if np_dtype.kind not in "biuf":
            if op is None:
                raise TypeError(f"a {dtype.name} tensor cannot be an ONNX model's input")
            raise export_error(op, f"ONNX export has no {dtype.name} tensors")
        return self.helper.np_dtype_to_tensor_dtype(np_dtype)

    def value_info(self, name, shape, dtype, what=None):
        """The type of a graph's input or output; `what` names an input or output of the
        model's main graph (None: of an If branch or a Loop body). ONNX's checker wants a
        shape (a rank; dims may be unknown) on the main graph's inputs and outputs only
        (`check_value_info` relaxes it for subgraphs), so a value of unknown rank is
        refused there, naming `what`, and typed without a shape in a subgraph."""
        if hasattr(shape, "rank"):  # a TensorShape; else a tuple of dims
            shape = None if shape.rank is None else shape.as_list()
        if shape is None:
            if what is None:
                return self.helper.make_tensor_value_info(name, self.elem_type(dtype), None)
            raise ExportError(
                f"onnx export: {what} has an unknown rank; ONNX's checker wants the rank "
                "of every input and output of a model (dims may be unknown): give its "
                "TensorSpec a shape such as [None, 3], or compute a result of known rank "
                "(ag.reshape(y, [-1]))")
        return self.helper.make_tensor_value_info(name, self.elem_type(dtype), list(shape))

    def variable(self, var):
        """The initializer holding `var`'s value now (the model keeps it as a constant)."""
        entry = self._variables.get(id(var))
        if entry is None:
            name = self.fresh(var.name)
            array = np.asarray(var.numpy(), var.dtype.np_dtype)
            self.initializers.append(self.onnx.numpy_helper.from_array(array, name))
            entry = self._variables[id(var)] = (var, name)
        return entry[1]


class Emitter:
    def __init__(self, model, scope=""):
        self.model = model
        self.scope = scope  # a prefix of value names, for reading the model
        self.nodes = []

    def fresh(self, base):
        return self.model.fresh(self.scope + base)

    def node(self, op_type, inputs, outputs=1, name=None, **attrs):
        """Add one node; `outputs` is a count or a list of names. Returns the names (one
        name when `outputs` is 1)."""
        if isinstance(outputs, int):
            outputs = [self.fresh(f"{name or op_type}") for _ in range(outputs)]
        node_name = self.fresh("node/" + (name or op_type))
        self.model.node_ops[node_name] = self.model.current_op
        self.nodes.append(self.model.helper.make_node(
            op_type, list(inputs), list(outputs), name=node_name, **attrs))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def const(self, value, dtype=None):
        array = np.asarray(value, dtype)
        tensor = self.model.onnx.numpy_helper.from_array(array, self.fresh("const"))
        return self.node("Constant", [], name="const", value=tensor)

    def int64s(self, values):
        """A 1-D int64 constant (axes, shapes, repeats: what ONNX takes as inputs)."""
        values = [values] if isinstance(values, (int, np.integer)) else list(values)
        return self.const(np.asarray(values, np.int64).reshape(-1), np.int64)

    def cast(self, name, np_dtype):
        return self.node("Cast", [name], to=self.model.helper.np_dtype_to_tensor_dtype(
            np.dtype(np_dtype)))

    def emit_graph(self, graph, bound, outputs=None):
        """Write `graph`'s ops here, its `inputs` bound to the names in `bound`
        (a list, in the order of `graph.inputs`, or a dict id(placeholder) -> name);
        return the names of `outputs` (default: the graph's own outputs)."""
        outputs = graph.outputs if outputs is None else outputs
        if not isinstance(bound, dict):
            bound = {id(p): name for p, name in zip(graph.inputs, bound)}
        values = dict(bound)
        for op in ops_reaching(outputs, graph.stateful_ops, values):
            rule = rule_for(op)
            outer, self.model.current_op = self.model.current_op, op
            try:
                result = rule(self, op, *[values[id(t)] for t in op.inputs])
            finally:
                self.model.current_op = outer
            names = (result,) if isinstance(result, str) else tuple(result)
            if len(names) != len(op.outputs):
                raise AssertionError(f"the ONNX rule of {op.type} gave {len(names)} "
                                     f"values for {len(op.outputs)} outputs")
            for t, name in zip(op.outputs, names):
                values[id(t)] = name
        return [values[id(t)] for t in outputs]

    def subgraph(self, name, inputs, outputs, specs):
        """This emitter's nodes as a GraphProto: `inputs` value infos, `outputs` names
        typed by `specs` (tensors or (shape, dtype) pairs), each given a fresh Identity."""
        infos = []
        for value, spec in zip(outputs, specs):
            shape, dtype = (spec.shape, spec.dtype) if hasattr(spec, "dtype") else spec
            out = self.node("Identity", [value], name="output")
            infos.append(self.model.value_info(out, shape, dtype))
        return self.model.helper.make_graph(self.nodes, self.model.fresh(name), inputs, infos)
