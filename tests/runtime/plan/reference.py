"""The reference interpreter of a graph: the oracle every plan-compiler pass is tested
against.

`interpret(ctx, fetches, targets, feeds)` runs, op by op in the graph's topological order,
the ops the fetches and targets need (a fed tensor prunes its producer), each by its
registry kernel (never a specialized one) on the values of its inputs; `If` and `While`
run their subgraphs by recursion. `feeds` maps each fed tensor's id to its value. It
returns the fetched values as the kernels made them. Nothing is compiled, folded, reused
or inlined: what a pass changes, this does not.
"""

from autograph_py.runtime.graph_walk import ops_reaching


def interpret(ctx, fetches, targets, feeds):
    values = dict(feeds)
    for op in ops_reaching(fetches, targets, feeds, control_inputs=True):
        args = [values[id(t)] for t in op.inputs]
        if op.type in ("If", "StatefulIf"):
            outs = _branch(ctx, op.attrs, args)
        elif op.type == "While":
            outs = _loop(ctx, op.attrs, args)
        else:
            result = op.opdef.kernel(*[ctx] * op.opdef.needs_context, *args, **op.attrs)
            outs = [result] if op.opdef.num_outputs == 1 else list(result)
        for t, value in zip(op.outputs, outs):
            values.setdefault(id(t), value)  # a fed value wins over its producer's
    return [values[id(t)] for t in fetches]


def _call(ctx, graph, inputs):
    return interpret(ctx, graph.outputs, graph.stateful_ops,
                     {id(t): v for t, v in zip(graph.inputs, inputs)})


def _branch(ctx, attrs, args):
    key = "then" if args[0] else "else"
    return _call(ctx, attrs[f"{key}_graph"], [args[1:][i] for i in attrs[f"{key}_indices"]])


def _loop(ctx, attrs, args):
    num_vars, limit = attrs["num_vars"], attrs["maximum_iterations"]
    loop_vars, captured = args[:num_vars], args[num_vars:]
    cond_extra = [captured[i] for i in attrs["cond_indices"]]
    body_extra = [captured[i] for i in attrs["body_indices"]]
    iterations = 0
    while (limit is None or iterations < limit) and \
            _call(ctx, attrs["cond_graph"], loop_vars + cond_extra)[0]:
        loop_vars = _call(ctx, attrs["body_graph"], loop_vars + body_extra)
        iterations += 1
    return loop_vars
