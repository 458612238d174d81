"""Copy the computation of a subgraph (a branch or loop body) into the current graph.

Contract: `inline_graph(graph, inputs)` re-creates, in the graph being built, the ops of
`graph` that its outputs depend on, with `graph.inputs` replaced by `inputs`, and returns
the copies of `graph.outputs`. Control-flow gradients use it to recompute a branch or a
loop body next to the gradient ops that need its intermediate values.
Only what the outputs need is copied, so side effects (print, Assert) are not repeated;
nested control-flow ops get side-effect-free copies of their bodies (`pure_copy`).
Variable reads are repeated (they read the current value), unless their values are given
(`known`). An output that depends on
an assignment cannot be recomputed without repeating it: that is a clear error.
`pure_copy(graph)` is `graph` itself when its only stateful ops are Variable reads, else
a copy (same inputs) with only what its outputs need.
"""

from autograph_py.runtime import context, registry
from autograph_py.runtime.errors import format_location
from autograph_py.runtime.graph import FuncGraph, Graph
from autograph_py.runtime.graph_walk import ops_reaching

# Stateful ops that are safe to run again: they only observe state.
_REPEATABLE = frozenset({"ReadVariable"})


def inline_graph(graph, inputs, outputs=None, known=()):
    """`known`: (tensor of `graph`, its value here) pairs that are not recomputed (the
    values a call's Variable reads gave, kept by the call)."""
    outputs = graph.outputs if outputs is None else outputs
    copies = {id(p): t for p, t in zip(graph.inputs, inputs)}
    copies.update((id(t), value) for t, value in known)
    for op in ops_reaching(outputs, known=copies):
        if op.type == "Placeholder":
            raise ValueError(f"cannot recompute {graph.name!r} for its gradient: placeholder "
                             f"{op.name} is not one of its inputs")
        attrs = op.attrs
        if any(isinstance(v, Graph) for v in attrs.values()):
            attrs = {k: pure_copy(v) if isinstance(v, Graph) else v for k, v in attrs.items()}
        elif op.stateful and op.type not in _REPEATABLE:
            raise NotImplementedError(
                f"cannot differentiate through {graph.name!r}: its outputs depend on the "
                f"stateful op {op.name} ({op.type}, created at {format_location(op.location)}),"
                " which computing the gradient would run a second time; compute that value "
                "outside the branch or loop")
        result = registry.apply(op.type, [copies[id(t)] for t in op.inputs], attrs)
        if registry.get(op.type).num_outputs == 1:
            result = (result,)
        for old, new in zip(op.outputs, result):
            copies[id(old)] = new
    return [copies[id(t)] for t in outputs]


def pure_copy(graph):
    if all(op.type in _REPEATABLE for op in graph.stateful_ops):
        return graph
    copy = FuncGraph(graph.name + "_pure", context.current_graph())
    with copy.as_default():
        inputs = [copy.add_input(p.op.name, p.shape, p.dtype) for p in graph.inputs]
        copy.outputs = inline_graph(graph, inputs)
    return copy
