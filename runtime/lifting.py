"""Lifting a Variable's initial value out of a function graph (TensorFlow's `init_scope`).

Contract:
- `lift(tensor, variable_name)` takes a symbolic tensor built in a function graph that is
  being traced and returns its value as a numpy array, computed now, eagerly, by the ops
  it is computed from (data dependencies only: stateful ops the graph merely orders
  before it, such as an earlier print, do not run). A value computed from a placeholder
  (an input of the function, or a tensor captured from an enclosing graph) cannot exist
  before the call: ValueError naming the variable, the input and the user's line.
- `detach_lifted(graph)`, once the trace is complete: the stateful ops that were run
  for an initial value (a random draw) and that nothing the function computes or runs
  reads leave the graph, so calls do not repeat them. One the function also uses (a
  draw that initializes a Variable and is returned) stays, and runs on every call.
"""

from autograph_py.runtime import errors
from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.recording import EAGER_CONTEXT


def lift(tensor, variable_name):
    ops = ops_reaching([tensor])
    inputs = [op for op in ops if op.type == "Placeholder"]
    if inputs:
        raise ValueError(
            f"the initial value of Variable '{variable_name}' (created at "
            f"{errors.format_location(errors.user_location())}) depends on the function's "
            f"input {inputs[0].outputs[0].name}; a Variable created inside ag.function needs "
            "an initial value that does not depend on the function's inputs (it is computed "
            "once, before the first call runs): compute it from static shapes and constants")
    values = {}
    for op in ops:
        args = [values[id(t)] for t in op.inputs]
        if op.opdef.needs_context:
            args.insert(0, EAGER_CONTEXT)
        result = op.opdef.kernel(*args, **op.attrs)
        outputs = (result,) if op.opdef.num_outputs == 1 else result
        values.update(zip(map(id, op.outputs), outputs))
    # Remembered on the graph until the trace is complete (`detach_lifted`).
    vars(tensor.graph).setdefault("lifted_stateful_ops", []).extend(
        op for op in ops if op.stateful)
    return values[id(tensor)]


def detach_lifted(graph):
    lifted = vars(graph).pop("lifted_stateful_ops", [])
    if not lifted:
        return
    candidates = {id(op) for op in lifted}
    live = ops_reaching(graph.outputs,
                        [op for op in graph.stateful_ops if id(op) not in candidates])
    gone = candidates - {id(op) for op in live}
    if not gone:
        return
    # Ops reading a removed op are dead too (were they live, it would be): drop them.
    for op in graph.get_operations():
        if any(id(t.op) in gone for t in op.inputs):
            gone.add(id(op))
    for op in graph.get_operations():
        if any(id(c) in gone for c in op.control_inputs):
            op.control_inputs[:] = _orderings(op.control_inputs, gone)
    # Graph surgery lives here, the one place that removes ops: indices stay the positions
    # in creation order (the executor orders by them; the next op takes len(_ops)).
    graph._ops = [op for op in graph._ops if id(op) not in gone]
    for index, op in enumerate(graph._ops):
        op.index = index
    graph.stateful_ops[:] = [op for op in graph.stateful_ops if id(op) not in gone]


def _orderings(control_inputs, gone):
    """`control_inputs` with each removed op replaced by the ops it was ordered after."""
    result = []
    for op in control_inputs:
        for kept in (_orderings(op.control_inputs, gone) if id(op) in gone else [op]):
            if kept not in result:
                result.append(kept)
    return result
