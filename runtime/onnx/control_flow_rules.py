"""ONNX rows of control flow: `If`/`StatefulIf` → ONNX `If`, `While` → ONNX `Loop`.

- A branch's inputs (the If's captured tensors) are the outer values themselves: ONNX
  subgraphs read outer names, so a branch has no inputs. An If without outputs (kept
  only for effects) writes nothing, once its branches passed the table (an effect in a
  branch is refused like any other).
- A loop runs rotated, as the numpy runtime and the XLA lowering run it: the condition
  graph is written once before the `Loop` (its `cond` input) and once at the end of the
  body, on the new values (the body's `cond` output). There is no trip count (empty
  input `M`) unless the loop has `maximum_iterations`. Break, continue and return flags
  are ordinary carried booleans. A loop that runs zero times gives its initial values,
  as ONNX's `Loop` does.
"""

import numpy as np
from autograph_py.runtime.onnx.emitter import Emitter
from autograph_py.runtime.onnx.table import register_conversion


@register_conversion("If", "StatefulIf")
def if_(g, op, pred, *captured):
    branches = {}
    for key in ("then", "else"):
        graph = op.attrs[f"{key}_graph"]
        bound = [captured[i] for i in op.attrs[f"{key}_indices"]]
        branch = Emitter(g.model, f"{op.name}/{key}/")
        outputs = branch.emit_graph(graph, bound)
        branches[key] = branch.subgraph(f"{op.name}/{key}", [], outputs, op.outputs)
    if not op.outputs:
        return ()
    result = g.node("If", [pred], len(op.outputs), name=op.name,
                    then_branch=branches["then"], else_branch=branches["else"])
    return (result,) if isinstance(result, str) else result


@register_conversion("While")
def while_(g, op, *args):
    attrs = op.attrs
    count = attrs["num_vars"]
    loop_vars, captured = list(args[:count]), args[count:]
    cond_graph, body_graph = attrs["cond_graph"], attrs["body_graph"]
    cond_extra = [captured[i] for i in attrs["cond_indices"]]
    body_extra = [captured[i] for i in attrs["body_indices"]]
    [first] = g.emit_graph(cond_graph, loop_vars + cond_extra)

    body = Emitter(g.model, f"{op.name}/body/")
    helper = g.model.helper
    iteration = body.fresh("iteration")
    condition_in = body.fresh("condition_in")
    names = [body.fresh(p.op.name) for p in body_graph.inputs[:count]]
    inputs = [helper.make_tensor_value_info(iteration, g.model.onnx.TensorProto.INT64, []),
              helper.make_tensor_value_info(condition_in, g.model.onnx.TensorProto.BOOL, [])]
    inputs += [g.model.value_info(name, p.shape, p.dtype)
               for name, p in zip(names, body_graph.inputs[:count])]
    new_values = body.emit_graph(body_graph, names + body_extra)
    [again] = body.emit_graph(cond_graph, new_values + cond_extra)
    specs = [((), cond_graph.outputs[0].dtype)] + [(p.shape, p.dtype)
                                                   for p in body_graph.inputs[:count]]
    body_proto = body.subgraph(f"{op.name}/body", inputs, [again, *new_values], specs)

    limit = attrs["maximum_iterations"]
    trip_count = "" if limit is None else g.const(int(limit), np.int64)
    result = g.node("Loop", [trip_count, first, *loop_vars], count, name=op.name,
                    body=body_proto)
    return (result,) if isinstance(result, str) else result
