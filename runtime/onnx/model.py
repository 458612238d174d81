"""One traced graph as one `onnx.ModelProto`.

Contract: `graph_to_model(graph, inputs, outputs, input_names, output_names, name)`
writes the ops `outputs` need (and every stateful op, to refuse it) into an ONNX graph
whose inputs are the placeholders `inputs` under `input_names` and whose outputs are
`outputs` under `output_names`, typed with our static shapes (unknown dims stay
unknown; an unknown rank is refused). The model has one opset (`OPSET`), the Variables
read as initializers, and passes `onnx.checker.check_model(model, full_check=True)`,
checked here: a node the checker rejects (an ONNX operator without the dtype it was
given) is an `ExportError` naming the op of ours it was written for and the user's
line; any other failure is our bug, an AssertionError, never a model handed over.
"""

import re

from autograph_py.runtime.onnx import OPSET, require_onnx
from autograph_py.runtime.onnx import rules as _rules  # noqa: F401  (fills the table)
from autograph_py.runtime.onnx.emitter import Emitter, Model
from autograph_py.runtime.onnx.table import export_error

PRODUCER = "autograph_py"


def graph_to_model(graph, inputs, outputs, input_names, output_names, name="main"):
    onnx = require_onnx()
    model = Model(onnx)
    input_names = [model.fresh(n) for n in input_names]
    input_infos = [model.value_info(n, p.shape, p.dtype, f"input {n}")
                   for n, p in zip(input_names, inputs)]
    main = Emitter(model)
    values = main.emit_graph(graph, {id(p): n for p, n in zip(inputs, input_names)},
                             outputs)
    output_names = [model.fresh(n) for n in output_names]
    infos = []
    for value, out_name, tensor in zip(values, output_names, outputs):
        main.node("Identity", [value], [out_name], name="output")
        infos.append(model.value_info(out_name, tensor.shape, tensor.dtype,
                                      f"output {out_name}"))
    proto = model.helper.make_graph(main.nodes, name, input_infos, infos,
                                    initializer=model.initializers)
    _drop_unused_nodes(proto)
    result = model.helper.make_model(
        proto, producer_name=PRODUCER,
        opset_imports=[model.helper.make_opsetid("", OPSET)])
    result.ir_version = 8  # the IR of opset 18, so older ONNX runtimes load it too
    try:
        onnx.checker.check_model(result, full_check=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as e:
        raise _invalid(model, e) from None
    return result


def _drop_unused_nodes(main):
    """Remove, in the main graph and every subgraph, the nodes no graph output needs:
    a rule writes every output of a multi-output op and the constants it might use, and
    only the ops our outputs need are walked, not only the values. Every node is pure
    (effects are refused), so dropping one changes nothing but the model's size. Value
    names are unique across the model, so one set of used names serves all graphs (a
    subgraph reads outer names)."""
    graphs = _all_graphs(main)
    while True:
        used = {name for g in graphs for node in g.node for name in node.input}
        used.update(out.name for g in graphs for out in g.output)
        dropped = False
        for g in graphs:
            kept = [n for n in g.node if any(name in used for name in n.output)]
            if len(kept) != len(g.node):
                dropped = True
                del g.node[:]
                g.node.extend(kept)
        if not dropped:
            return
        graphs = _all_graphs(main)  # a dropped If or Loop takes its subgraphs along


def _all_graphs(graph):
    found = [graph]
    for node in graph.node:
        for attr in node.attribute:
            if attr.HasField("g"):
                found.extend(_all_graphs(attr.g))
            for sub in attr.graphs:
                found.extend(_all_graphs(sub))
    return found


def _invalid(model, error):
    """The checker's complaint about a node (an ONNX operator without the dtype we
    gave it: Neg of uint8, ...) as an ExportError naming the op it was written for; any
    other invalid model is our bug."""
    found = re.search(r"node name: ([^)\s]+)", str(error))
    op = model.node_ops.get(found.group(1)) if found else None
    if op is None:
        return AssertionError(f"the exported ONNX model is invalid (a bug of the "
                              f"exporter): {error}")
    reason = str(error).strip().splitlines()[0]
    return export_error(op, f"ONNX opset {OPSET} refuses it for these dtypes ({reason})")
