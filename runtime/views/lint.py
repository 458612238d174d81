"""Structural checks of a graph (like torch.fx's `Graph.lint`).

Contract: `lint(graph)` returns None when the graph is well formed and otherwise raises a
`ValueError` whose message names the offending op (and, inside a subgraph, the op and
attr that hold it). It checks that:
- every op belongs to `graph`, sits at its own `index`, and has a unique name;
- each output `i` of an op points back to the op with `value_index == i`;
- data and control inputs are ops/outputs of this graph created earlier (so creation
  order is a topological order, which the executor relies on);
- each op's outputs carry the dtypes and shapes its shape rule gives when re-run on its
  inputs (a recorded shape may be more specific, as `set_shape` makes it, never
  incompatible);
- every stateful op is listed in `graph.stateful_ops`, and only ops of this graph are;
- a FuncGraph's inputs are distinct placeholders of its own, its captures pair a tensor
  of the outer graph with one of those inputs, and its outputs are its own tensors;
- subgraphs held in attrs are linted recursively, belong to this graph
  (`outer_graph`), and for `If` / `StatefulIf` / `While` their input
  and output counts and dtypes match the op's, and the op's captured inputs are the
  tensors the subgraphs captured.
"""

from autograph_py.runtime.graph import FuncGraph, Graph, Operation
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import SymbolicTensor


def lint(graph, where=""):
    positions = {}  # id(op) -> position: "earlier op of this graph" is a lookup
    names = set()
    stateful = {id(op) for op in graph.stateful_ops}
    for position, op in enumerate(graph.get_operations()):
        _check_op(graph, op, position, positions, names, where)
        if op.stateful and id(op) not in stateful:
            _fail(where, op, "is stateful but missing from graph.stateful_ops")
        positions[id(op)] = position
    for op in graph.stateful_ops:
        if id(op) not in positions:
            raise ValueError(f"{where}stateful op {op.name!r} is not an op of this graph")
    if isinstance(graph, FuncGraph):
        _check_func_graph(graph, positions, where)


def _fail(where, op, message):
    raise ValueError(f"{where}op {op.name!r} ({op.type}): {message}")


def _check_op(graph, op, position, positions, names, where):
    if not isinstance(op, Operation):
        raise ValueError(f"{where}operation {position} is not an Operation: {op!r}")
    if op.graph is not graph:
        _fail(where, op, "belongs to another graph")
    if op.index != position:
        _fail(where, op, f"has index {op.index} but is operation {position} of the graph")
    if op.name in names:
        _fail(where, op, "has the same name as an earlier op")
    names.add(op.name)
    for i, t in enumerate(op.outputs):
        if t.op is not op or t.value_index != i:
            _fail(where, op, f"output {i} ({t!r}) does not point back to this op")
    for i, t in enumerate(op.inputs):
        _check_produced_earlier(t, positions, where, op, f"input {i}")
    for c in op.control_inputs:
        if not isinstance(c, Operation) or id(c) not in positions:
            _fail(where, op, f"control input {getattr(c, 'name', c)!r} is not an earlier op "
                             "of this graph")
    for key, sub in _subgraph_attrs(op):
        if sub.outer_graph is not graph:
            _fail(where, op, f"subgraph {key} does not have this graph as its outer graph")
        lint(sub, f"{where}in {key} of op {op.name!r}: ")
    check = _SUBGRAPH_SIGNATURES.get(op.type)
    if check is not None:
        check(op, where)
    _check_inferred_specs(op, where)


def _check_produced_earlier(t, positions, where, op, what):
    if not isinstance(t, SymbolicTensor):
        _fail(where, op, f"{what} is not a symbolic tensor: {t!r}")
    if id(t.op) not in positions:
        _fail(where, op, f"{what} {t.name} is not produced by an earlier op of this graph")
    if t.value_index >= len(t.op.outputs) or t.op.outputs[t.value_index] is not t:
        _fail(where, op, f"{what} {t.name} is not an output of its op")


def _check_inferred_specs(op, where):
    try:
        specs = op.opdef.infer(*op.inputs, **op.attrs)
    except (ValueError, TypeError, IndexError) as e:
        _fail(where, op, f"its shape rule rejects its inputs now: {e}")
    if op.opdef.num_outputs == 1:
        specs = [specs]
    if len(specs) != len(op.outputs):
        _fail(where, op, f"has {len(op.outputs)} outputs but its shape rule gives "
                         f"{len(specs)}")
    for i, (t, (shape, dtype)) in enumerate(zip(op.outputs, specs)):
        if t.dtype != dtype or not t.shape.is_compatible_with(shape):
            _fail(where, op, f"output {i} is recorded as {t.dtype.name} {t.shape} but its "
                             f"shape rule gives {dtype.name} {TensorShape(shape)}")


def _check_func_graph(graph, positions, where):
    seen = set()
    for t in graph.inputs:
        if not isinstance(t, SymbolicTensor) or id(t.op) not in positions \
                or t.op.type != "Placeholder":
            raise ValueError(f"{where}input {t!r} of {graph.name} is not a placeholder of it")
        if id(t) in seen:
            raise ValueError(f"{where}input {t.name} of {graph.name} is listed twice")
        seen.add(id(t))
    for outer, inner in graph.captures:
        if id(inner) not in seen:
            raise ValueError(f"{where}capture {inner.name} of {graph.name} is not one of its "
                             "inputs")
        if not isinstance(outer, SymbolicTensor) or outer.graph is not graph.outer_graph:
            raise ValueError(f"{where}capture {inner.name} of {graph.name} comes from "
                             f"{outer!r}, which is not a tensor of the outer graph")
    for t in graph.outputs:
        if not isinstance(t, SymbolicTensor) or id(t.op) not in positions:
            raise ValueError(f"{where}output {t!r} of {graph.name} is not a tensor of it")


def _subgraph_attrs(op):
    for key, value in op.attrs.items():
        if isinstance(value, Graph):
            yield key, value


# --- the signatures of ops that run subgraphs -----------------------------------------------


def _check_dtypes(op, where, what, actual, expected):
    """`actual` and `expected` (tensors or dtypes) must agree in count and dtypes."""
    actual = [getattr(a, "dtype", a) for a in actual]
    expected = [getattr(e, "dtype", e) for e in expected]
    if len(actual) != len(expected):
        _fail(where, op, f"{what}: {len(actual)} tensors where the op has {len(expected)}")
    for i, (a, e) in enumerate(zip(actual, expected)):
        if a is not e:
            _fail(where, op, f"{what}: tensor {i} has dtype {a.name} where the op has {e.name}")


def _check_captures(op, where, key, captured, indices, explicit):
    """`op.attrs[key]` takes `explicit` inputs then `captured[indices]`, its captures."""
    sub = op.attrs[key]
    name = key.replace("_graph", "_indices")
    if any(not 0 <= i < len(captured) for i in indices):
        _fail(where, op, f"{name} {list(indices)} point outside the {len(captured)} captured "
                         "inputs")
    picked = [captured[i] for i in indices]
    if len(sub.captures) != len(picked) or any(
            outer is not t for (outer, _), t in zip(sub.captures, picked)):
        _fail(where, op, f"{name} do not select the tensors {key} captured")
    _check_dtypes(op, where, f"{key} inputs", sub.inputs, list(explicit) + picked)


def _check_if(op, where):
    for branch in ("then", "else"):
        key = f"{branch}_graph"
        _check_captures(op, where, key, op.inputs[1:], op.attrs[f"{branch}_indices"], ())
        _check_dtypes(op, where, f"{key} outputs", op.attrs[key].outputs, op.outputs)


def _check_while(op, where):
    num_vars = op.attrs["num_vars"]
    loop_vars, captured = op.inputs[:num_vars], op.inputs[num_vars:]
    _check_dtypes(op, where, "outputs", op.outputs, loop_vars)
    for part in ("cond", "body"):
        _check_captures(op, where, f"{part}_graph", captured, op.attrs[f"{part}_indices"],
                        loop_vars)
    cond_outputs = op.attrs["cond_graph"].outputs
    if len(cond_outputs) != 1 or not cond_outputs[0].dtype.is_bool:
        _fail(where, op, "cond_graph must return one bool tensor")
    _check_dtypes(op, where, "body_graph outputs", op.attrs["body_graph"].outputs, loop_vars)


# StatefulIf is If registered as stateful (its branches hold stateful ops).
_SUBGRAPH_SIGNATURES = {"If": _check_if, "StatefulIf": _check_if, "While": _check_while}


def _lint_method(graph):
    """`graph.lint()`: raises ValueError naming the bad op, else returns True."""
    lint(graph)
    return True


# Attached here so that graph.py never imports this module (it sits below it).
Graph.lint = _lint_method
