"""A function graph called from inside the graph being built: its ops copied there.

Contract: `inline(graph, inputs)` re-creates every op of `graph` (a function graph that
captures nothing, such as a loaded function's) in the graph being built, its placeholders
replaced by `inputs`, and returns the copies of `graph.outputs`. Unlike the gradients'
`inline_graph`, nothing is left out: stateful ops (Variable assignments, prints, asserts)
are copied too, and run in program order with the caller's (the graph being built chains
them as it chains its own). Branch and loop bodies are copied into new subgraphs of the
graph being built, their captures re-linked to the copies, so the result lints, prints,
serializes and differentiates like a graph traced from Python. Ops go through `apply`, so
a tape recording while the graph is built sees them.
"""

from autograph_py.runtime import context, registry
from autograph_py.runtime.graph import FuncGraph


def inline(graph, inputs):
    copies = {id(p): t for p, t in zip(graph.inputs, inputs)}
    _copy_ops(graph, copies)
    return [copies[id(t)] for t in graph.outputs]


def _copy_ops(graph, copies):
    op_copies = {}
    for op in graph.get_operations():
        if op.type == "Placeholder" and id(op.outputs[0]) in copies:
            continue
        attrs = {key: _copy_body(value, copies) if isinstance(value, FuncGraph) else value
                 for key, value in op.attrs.items()}
        result = registry.apply(op.type, [copies[id(t)] for t in op.inputs], attrs,
                                op_name=op.name)
        outputs = (result,) if op.opdef.num_outputs == 1 else tuple(result)
        for old, new in zip(op.outputs, outputs):
            copies[id(old)] = new
        if outputs:
            op_copies[id(op)] = outputs[0].op
            # Control inputs between ops of the graph are kept (those between its
            # stateful ops are made again by the chaining of the graph being built).
            for control in op.control_inputs:
                if id(control) in op_copies:
                    outputs[0].op.add_control_input(op_copies[id(control)])


def _copy_body(body, outer_copies):
    copy = FuncGraph(body.name, context.current_graph())
    inner = {}
    with copy.as_default():
        for placeholder in body.inputs:
            inner[id(placeholder)] = copy.add_input(placeholder.op.name, placeholder.shape,
                                                    placeholder.dtype)
        _copy_ops(body, inner)
    copy.outputs = [inner[id(t)] for t in body.outputs]
    copy.captures = [(outer_copies[id(outer)], inner[id(p)]) for outer, p in body.captures]
    copy.output_names = body.output_names
    return copy
