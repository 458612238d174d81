"""Graphs of operations: `Graph`, `Operation`, and `FuncGraph` for branch and loop bodies.

Contract:
- A `Graph` holds operations in creation order, which is a topological order (an op can
  only consume tensors that exist). Names are unique, `name_scope` prefixes them (a
  scope name ending in "/" is absolute, as in TensorFlow).
- `Graph.as_default()` makes ops created inside it graph ops (nesting works).
- A tensor from an enclosing graph used in a `FuncGraph` is captured: the body gets a
  placeholder and `captures` records (outer tensor, inner placeholder); enclosing
  `FuncGraph`s capture it first. A tensor from an unrelated graph is a ValueError.
- An eager tensor used in graph mode becomes a `Const` op (once per tensor and graph).
- Stateful ops are listed in `stateful_ops` in program order: executors run them even
  when no fetch needs them inside function and body graphs (DESIGN.md §3).
- The views of a graph are methods attached by the modules that make them, which sit
  above this one: `as_text()` / `str()` (views.text), `lint()` (views.lint),
  `as_dict()` / `Graph.from_dict()` (views.serialization), `to_dot()` (views.dot). Importing
  `autograph_py.runtime` attaches them all.
"""

import contextlib
import re

from autograph_py.runtime import context, errors, registry
from autograph_py.runtime.graph_derived import Derived
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor


class Operation:
    __slots__ = ("graph", "name", "type", "opdef", "inputs", "attrs", "outputs",
                 "control_inputs", "location", "index", "__weakref__")

    def __init__(self, graph, name, opdef, inputs, attrs, output_specs, index):
        self.graph = graph
        self.name = name
        self.type = opdef.name
        self.opdef = opdef
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.control_inputs = []
        self.location = errors.user_location()
        self.index = index
        self.outputs = tuple(SymbolicTensor(self, i, shape, dtype)
                             for i, (shape, dtype) in enumerate(output_specs))

    @property
    def stateful(self):
        return self.opdef.stateful

    def add_control_input(self, op):
        if op.graph is not self.graph:
            raise ValueError(f"control input {op.name} belongs to another graph than {self.name}")
        if op not in self.control_inputs:
            self.control_inputs.append(op)

    def __repr__(self):
        return f"<Operation '{self.name}' type={self.type}>"


_VALID_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/]*$")


class Graph:
    """A dataflow graph. Use `with Graph().as_default():` to build into it."""

    def __init__(self):
        self._ops = []
        self._names = {}
        self._scope = []
        self._constants = {}  # id(eager tensor) -> (tensor, Const output)
        self.stateful_ops = []
        self.variables = []
        self.outer_graph = None
        self.control_dependencies_chain = False  # function graphs order stateful ops
        # Variables created while building this graph are created eagerly, their reads
        # captured (set on the graph `ag.function` traces; serialized with it).
        self.lift_variables = False
        # What other modules compute once from the finished graph (runtime/graph_derived.py).
        self.derived = Derived()

    # --- building -------------------------------------------------------------------

    def as_default(self):
        return context.building(self)

    @contextlib.contextmanager
    def name_scope(self, name):
        """Ops made inside are named under the scope: `name` nested in the current scope,
        or, when `name` ends with "/", that whole scope (TensorFlow's rule, by which a
        module re-enters the scope it was made in)."""
        if name and not _VALID_NAME.match(name):
            raise ValueError(f"invalid name scope {name!r}")
        outer = self._scope
        self._scope = [name[:-1]] if name.endswith("/") else [*outer, name]
        try:
            yield "/".join(self._scope) + "/"
        finally:
            self._scope = outer

    def unique_name(self, base):
        if self._scope:
            base = "/".join(self._scope) + "/" + base
        count = self._names.get(base)
        if count is None:
            self._names[base] = 1
            return base
        while True:
            candidate = f"{base}_{count}"
            count += 1
            if candidate not in self._names:
                self._names[base] = count
                self._names[candidate] = 1
                return candidate

    def create_op(self, opdef, inputs, attrs, name=None):
        inputs = [self.capture(t) for t in inputs]
        try:
            specs = opdef.infer(*inputs, **attrs)
        except (ValueError, TypeError, IndexError) as e:
            raise type(e)(f"{opdef.name}: {e} (inputs: {registry.describe_inputs(inputs)})") \
                from None
        if opdef.num_outputs == 1:
            specs = [specs]
        op = Operation(self, self.unique_name(name or opdef.name), opdef, inputs, attrs,
                       specs, len(self._ops))
        self._ops.append(op)
        if opdef.stateful:
            if self.control_dependencies_chain and self.stateful_ops:
                op.add_control_input(self.stateful_ops[-1])
            self.stateful_ops.append(op)
        return op

    def capture(self, tensor):
        """`tensor` as a tensor of this graph (capturing or embedding it if needed)."""
        if isinstance(tensor, SymbolicTensor):
            if tensor.op.graph is self:
                return tensor
            raise ValueError(
                f"tensor {tensor.name} belongs to another graph; it cannot be an input of "
                "an op in this graph. Create all the ops of a computation in one graph.")
        if isinstance(tensor, EagerTensor):
            return self._constant_for(tensor)
        raise TypeError(f"expected a tensor, got {type(tensor).__name__}")

    def _constant_for(self, tensor):
        entry = self._constants.get(id(tensor))
        if entry is not None and entry[0] is tensor:
            return entry[1]
        op = self.create_op(registry.get("Const"), [],
                            {"value": tensor._value, "dtype": tensor.dtype})
        self._constants[id(tensor)] = (tensor, op.outputs[0])
        return op.outputs[0]

    # --- inspection -----------------------------------------------------------------

    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        for op in self._ops:
            if op.name == name:
                return op
        raise KeyError(f"no operation named {name!r} in this graph")

    def get_tensor_by_name(self, name):
        op_name, _, index = name.rpartition(":")
        op = self.get_operation_by_name(op_name)
        return op.outputs[int(index)]

    def is_ancestor_of(self, graph):
        while graph is not None:
            if graph is self:
                return True
            graph = graph.outer_graph
        return False

    def __len__(self):
        return len(self._ops)


class FuncGraph(Graph):
    """The graph of a branch, loop body or traced function: it captures outer tensors."""

    def __init__(self, name, outer_graph):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self.inputs = []          # placeholders: explicit inputs first, then captures
        self.outputs = []
        self.captures = []        # [(outer tensor, inner placeholder)]
        self._capture_map = {}    # id(outer tensor) -> inner placeholder
        self.control_dependencies_chain = True
        # The user's names of the outputs of an `If`'s true branch (runtime/control_flow.cond),
        # for lowerings that must name one (runtime/xla); kept beside the graph, not as an
        # attr, so a graph's printed and serialized forms do not depend on them.
        self.output_names = None

    def add_input(self, name, shape, dtype):
        placeholder = make_placeholder(self, dtype, shape, name)
        self.inputs.append(placeholder)
        return placeholder

    def capture(self, tensor):
        if isinstance(tensor, SymbolicTensor) and tensor.op.graph is not self:
            if not tensor.op.graph.is_ancestor_of(self.outer_graph):
                return super().capture(tensor)  # raises the unrelated-graph error
            inner = self._capture_map.get(id(tensor))
            if inner is None and tensor.op.opdef.recreated_where_read:
                op = tensor.op
                inner = self._capture_map[id(tensor)] = self.create_op(
                    op.opdef, op.inputs, op.attrs).outputs[0]
            if inner is None:
                outer = self.outer_graph.capture(tensor) if isinstance(
                    self.outer_graph, FuncGraph) else tensor
                inner = make_placeholder(self, tensor.dtype, tensor.shape,
                                         tensor.op.name.replace("/", "_") + "_capture")
                self.inputs.append(inner)
                self.captures.append((outer, inner))
                self._capture_map[id(tensor)] = inner
            return inner
        return super().capture(tensor)

    @property
    def captured_outer_tensors(self):
        return [outer for outer, _ in self.captures]


def make_placeholder(graph, dtype, shape, name):
    op = graph.create_op(registry.get("Placeholder"), [],
                         {"dtype": dtype, "shape": TensorShape(shape)}, name=name)
    return op.outputs[0]


_global_graph = None


def get_default_graph():
    """The graph being built, or the global graph when none is (like TensorFlow 1)."""
    graph = context.current_graph()
    if graph is not None:
        return graph
    global _global_graph
    if _global_graph is None:
        _global_graph = Graph()
    return _global_graph


def reset_default_graph():
    global _global_graph
    _global_graph = None


def name_scope(name):
    """`with ag.name_scope('layer'):` prefixes the names of ops built inside."""
    graph = context.current_graph()
    if graph is None:
        return contextlib.nullcontext(name)
    return graph.name_scope(name)
