"""Reverse-mode accumulation, shared by `GradientTape.gradient` and `gradients(ys, xs)`.

Contract: `differentiate(nodes, targets, target_grads, sources, unconnected_gradients)`
is the entry point: flat lists of targets (their gradients summed, each weighted by its
`target_grads` entry, ones by default) and of sources (tensors or Variables); it returns
one gradient per source: None where none flows, or zeros with `unconnected_gradients=
'zero'`. It rests on `backprop(nodes, seeds, sources, variables)` walks `nodes` (graph Operations or
tape records: objects with `.type`, `.inputs`, `.outputs`, `.attrs`, listed in a
topological order) backwards from `seeds` (pairs of a target tensor and its incoming
gradient) and returns `(source_grads, variable_grads)`: one gradient per source tensor
and per Variable, None where no gradient flows.
- Only floating-point tensors carry gradients: integer and bool tensors stop them
  silently (indices, counters, masks), as in TensorFlow.
- A node whose op has no row in the gradient table (`registry.gradient`) is not
  differentiable. A rule that `takes_needed` learns which of its gradients will be used
  (`needed=`). A row with a `direct` answer may answer for a tape that holds its node
  alone.
- A Variable's gradient is the sum over the `ReadVariable` nodes of it. Control-flow
  ops (If, While) also read Variables inside their bodies: their rules return, after
  one gradient per input, one per `inner_variables(op)`.
- Gradients are built with ordinary ops, so they run eagerly or become graph ops, and
  an enclosing tape records them (second derivatives).
"""

import numpy as np
from autograph_py.runtime import registry
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.creation_ops import ones_like, zeros_like
from autograph_py.runtime.ops.math_ops import add
from autograph_py.runtime.tensor import EagerTensor, Tensor
from autograph_py.runtime.variables import Variable


def is_differentiable(tensor):
    return tensor.dtype.is_floating


def subgraphs(attrs):
    """The graphs held in an op's attrs (branches and bodies of control-flow ops)."""
    return [value for value in attrs.values() if isinstance(value, Graph)]


def inner_variables(op):
    """The Variables read inside `op`'s subgraphs (nested ones too), in a stable order (a
    tuple, shared: not to be changed)."""
    return variables_read_inside(op.attrs)


def variables_read_inside(attrs):
    graph = attrs.get("graph")
    if graph is not None:  # a call (Call, XlaCall): its one graph, asked on every record
        return _variables_of(graph)
    graphs = subgraphs(attrs)
    if len(graphs) == 1:  # a call or a branch: its graph's own list
        return _variables_of(graphs[0])
    found = {}
    for graph in graphs:
        for var in _variables_of(graph):
            found.setdefault(id(var), var)
    return tuple(found.values())


def _variables_of(graph):
    return graph.derived.once("inner_variables", lambda: tuple(_variables_read_in(graph)))


def _variables_read_in(graph):
    found = {}
    for op in graph.get_operations():
        if op.type == "ReadVariable":
            found.setdefault(id(op.attrs["var"]), op.attrs["var"])
        else:
            for var in inner_variables(op):
                found.setdefault(id(var), var)
    return list(found.values())


def sum_gradients(grads):
    """The sum of a list of gradients (None for an empty list)."""
    if not grads:
        return None
    total = grads[0]
    for g in grads[1:]:
        total = add(total, g)
    return total


def _reads_any(node, variable_ids):
    if node.type == "ReadVariable":
        return id(node.attrs["var"]) in variable_ids
    return bool(variable_ids) and any(id(v) in variable_ids for v in inner_variables(node))


def _between(nodes, sources, variable_ids):
    """The nodes some source reaches, and the ids of the tensors they make differentiable."""
    live = {id(s) for s in sources if is_differentiable(s)}
    relevant = []
    for node in nodes:
        for t in node.inputs:
            if id(t) in live:
                break
        else:
            if not _reads_any(node, variable_ids):
                continue
        relevant.append(node)
        for o in node.outputs:
            if o.dtype.is_floating:
                live.add(id(o))
    return relevant, live


def backprop(nodes, seeds, sources, variables=()):
    variable_ids = {}  # id(variable) -> its slot: a Variable listed twice has one
    for v in variables:
        variable_ids.setdefault(id(v), len(variable_ids))
    relevant, live = _between(nodes, sources, variable_ids)
    pending = {}  # id(tensor) -> gradients flowing into it from its consumers
    for target, grad in seeds:
        if id(target) in live and grad is not None:
            pending.setdefault(id(target), []).append(grad)
    variable_grads = [[] for _ in variable_ids]

    for node in reversed(relevant):
        out_grads = [_collect(pending, o) for o in node.outputs]
        if all(g is None for g in out_grads):
            continue
        if node.type == "ReadVariable":
            variable_grads[variable_ids[id(node.attrs["var"])]].append(out_grads[0])
            continue
        gradient = registry.gradient(node.type)
        if gradient is None:
            continue
        rule = gradient.rule
        if len(out_grads) > 1 and not gradient.takes_none:
            # rules of multi-output ops get a gradient for every output
            out_grads = [zeros_like(o) if g is None and is_differentiable(o) else g
                         for o, g in zip(node.outputs, out_grads)]
        inner = None
        if gradient.takes_needed:
            inner = inner_variables(node)
            needed = [id(t) in live for t in node.inputs]
            needed += [id(v) in variable_ids for v in inner]
            in_grads = tuple(rule(node, *out_grads, needed=needed))
        else:
            in_grads = tuple(rule(node, *out_grads))
        for t, g in zip(node.inputs, in_grads):
            if g is not None and id(t) in live:
                pending.setdefault(id(t), []).append(g)
        extra = in_grads[len(node.inputs):]
        if extra:
            for var, g in zip(inner or inner_variables(node), extra):
                if g is not None and id(var) in variable_ids:
                    variable_grads[variable_ids[id(var)]].append(g)

    source_grads = [_collect(pending, s) if is_differentiable(s) else None for s in sources]
    totals = [sum_gradients(gs) for gs in variable_grads]
    return source_grads, [totals[variable_ids[id(v)]] for v in variables]


def _collect(pending, tensor):
    """The total gradient of `tensor`, summed once and kept for later readers."""
    grads = pending.get(id(tensor))
    if not grads:
        return None
    if len(grads) > 1:
        grads[:] = [sum_gradients(grads)]
    return grads[0]


def _embedded_ids(graph):
    """The ids of the eager tensors `graph` (or a graph nested in its ops) holds as
    constants: used inside a traced function without being passed to it (the graph keeps
    them alive, so their ids stay theirs)."""
    def find():
        found = set(graph._constants)
        for op in graph.get_operations():
            for inner in subgraphs(op.attrs):
                found |= _embedded_ids(inner)
        return frozenset(found)

    return graph.derived.once("embedded_eager_tensors", find)


def _refuse_embedded_sources(nodes, sources):
    """A source that a recorded call's graph holds as a constant (an eager tensor the
    function read from an enclosing scope) gets no gradient through that call, where
    TensorFlow (which captures it as an input) gives one: an error, not a wrong answer."""
    tensors = [(i, s) for i, s in enumerate(sources) if isinstance(s, EagerTensor)]
    if not tensors:
        return
    for node in nodes:
        graph = node.attrs.get("graph")
        if not isinstance(graph, Graph):
            continue
        embedded = _embedded_ids(graph)
        for i, source in tensors:
            if id(source) in embedded:
                name = getattr(graph, "name", None) or "a traced function"
                raise ValueError(
                    f"gradient source {i} (a {source.dtype.name} tensor of shape "
                    f"{source.shape}) is used inside {name} without being passed to it "
                    "(read from an enclosing scope, it was traced as a constant): its "
                    "gradient through that call is not computed. Pass it to the "
                    "function as an argument.")


UNCONNECTED = ("none", "zero")


def _ones_like(target):
    if isinstance(target, EagerTensor):  # made directly: an op costs microseconds more
        return EagerTensor(np.ones(target._value.shape, target._value.dtype), target.dtype)
    return ones_like(target)


def differentiate(nodes, targets, target_grads, sources, unconnected_gradients="none"):
    if unconnected_gradients not in UNCONNECTED:
        raise ValueError(f"unconnected_gradients must be one of {UNCONNECTED}, got "
                         f"{unconnected_gradients!r}")
    for s in sources:
        if not isinstance(s, (Tensor, Variable)):
            raise TypeError(f"gradient sources must be tensors or Variables, got "
                            f"{type(s).__name__} ({s!r})")
    _refuse_embedded_sources(nodes, sources)
    if len(nodes) == 1 and len(targets) == 1 and target_grads[0] is None:
        gradient = registry.gradient(nodes[0].type)
        found = gradient and gradient.direct and gradient.direct(nodes[0], targets[0], sources)
        if found is not None:  # every source is one the node prepared a gradient for
            return found
    seeds = []
    for target, grad in zip(targets, target_grads):
        target = convert_to_tensor(target)
        if is_differentiable(target):
            # A non-scalar target is summed: its incoming gradient is all ones.
            seeds.append((target, _ones_like(target) if grad is None else
                          convert_to_tensor(grad, target.dtype)))
    tensors = [s for s in sources if isinstance(s, Tensor)]
    variables = [s for s in sources if isinstance(s, Variable)]
    tensor_grads, variable_grads = backprop(nodes, seeds, tensors, variables)
    by_source = iter(tensor_grads), iter(variable_grads)
    results = [next(by_source[isinstance(s, Variable)]) for s in sources]
    if unconnected_gradients == "zero":
        results = [zeros_like(s) if g is None else g for s, g in zip(sources, results)]
    return results
