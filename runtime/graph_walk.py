"""Which operations a computation needs: the one backwards walk over a graph.

Contract: `ops_reaching(tensors, ops, known, control_inputs)` returns the operations that
compute `tensors` and that `ops` need (`ops` included), in graph (topological) order.
The walk goes back through inputs, and through control inputs when `control_inputs` is
true, and stops at tensors whose id is in `known`. The executor selects a plan's ops with
it (fed tensors known), gradients the ops to differentiate or to recompute.
It reads only `.op`, `.inputs`, `.control_inputs` and `.index`, so it sits below the
graph, the executor and the registry alike.
"""


def ops_reaching(tensors, ops=(), known=(), control_inputs=False):
    needed = {}
    stack = [t.op for t in tensors if id(t) not in known] + list(ops)
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed[id(op)] = op
        stack.extend(t.op for t in op.inputs if id(t) not in known)
        if control_inputs:
            stack.extend(op.control_inputs)
    return sorted(needed.values(), key=lambda op: op.index)
