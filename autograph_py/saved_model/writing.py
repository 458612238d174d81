"""`save(obj, export_dir, signatures=None)`: write a saved model (TensorFlow's
`tf.saved_model.save`).

Contract:
- What is saved is `collecting.collect(obj)`: the object tree, every `ag.function`
  reachable with all its traces (an `input_signature`'s traced now if it was not), every
  Variable reachable or read by a saved graph, with its current value.
- `signatures`: a function with an `input_signature`, a ConcreteFunction, or a dict of
  such by signature key; a single one is `serving_default`. None: a root `ag.function`
  with one trace, or the one `ag.function` attribute of the root with an
  `input_signature` (TensorFlow's rule), is `serving_default`; otherwise there are no
  signatures. A signature's inputs are named by their TensorSpec's name, else by their
  parameter (`x`; nested `x_0`, `x_1`); its outputs by the keys of the dict the function
  returns, else `output_0`, `output_1`, ... (a Python value among them is refused).
- Refused with a clear error before anything is written: an argument or a result that
  is not a tensor, a nested list/tuple/dict of them or a JSON-able Python constant; two
  different Variables of one name; a string Variable; a graph holding what the graph
  format cannot (`runtime/views/serialization.py`).
- The files (`runtime/saved_model/format.py`) are each written aside and renamed, the
  manifest last: a directory whose writing was interrupted has no new manifest.
"""

import inspect
import os

from autograph_py import __version__
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.saved_model import format as fmt
from autograph_py.runtime.saved_model.variables_file import write_variables
from autograph_py.runtime.tensor import SymbolicTensor
from autograph_py.runtime.variables import Variable
from autograph_py.runtime.views.serialization import graph_to_dict
from autograph_py.saved_model import structures
from autograph_py.saved_model.collecting import as_function, collect
from autograph_py.saved_model.readme import readme
from autograph_py.tracing.concrete_function import ConcreteFunction

DEFAULT_SIGNATURE = "serving_default"


def save(obj, export_dir, signatures=None):
    collected = collect(obj)
    functions = [(path, fn.concrete_functions()) for path, fn in collected.functions]
    signature_functions = _signatures(obj, collected, functions, signatures)
    concretes = _unique([c for _, cs in functions for c in cs] +
                        [c for c in signature_functions.values()])
    position = {id(c): i for i, c in enumerate(concretes)}
    graphs = [graph_to_dict(c.graph) for c in concretes]
    variables = _variable_table(collected.variables, concretes)
    for doc in graphs:
        doc["variables"] = []  # their values go to variables.npz, once
    manifest = {
        "format": fmt.FORMAT, "version": fmt.VERSION, "written_by": f"autograph_py {__version__}",
        "variables": [{"name": v.name, "dtype": v.dtype.name, "shape": list(v.shape.dims),
                       "trainable": v.trainable} for v in variables],
        "concrete_functions": [_concrete_entry(c) for c in concretes],
        "functions": [{"name": path, "concrete_functions": [position[id(c)] for c in cs]}
                      for path, cs in functions],
        "signatures": {key: _signature_entry(key, c, position[id(c)])
                       for key, c in signature_functions.items()},
        "objects": collected.objects,
        "root": collected.root,
    }
    os.makedirs(export_dir, exist_ok=True)
    fmt.write_json(export_dir, fmt.GRAPHS, {"graphs": graphs})
    write_variables(os.path.join(export_dir, fmt.VARIABLES),
                    {f"v{i}": v.numpy() for i, v in enumerate(variables)})
    fmt.write_text(export_dir, fmt.README, readme(manifest))
    fmt.write_json(export_dir, fmt.MANIFEST, manifest)


def _unique(items):
    seen = {}
    for item in items:
        seen.setdefault(id(item), item)
    return list(seen.values())


# --- signatures ------------------------------------------------------------------------------


def _signatures(obj, collected, functions, signatures):
    if signatures is None:
        found = _default_signature(obj, collected, functions)
        # As TensorFlow: a function that returns more than tensors is no default.
        if found is None or not _returns_tensors(found):
            return {}
        return {DEFAULT_SIGNATURE: found}
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SIGNATURE: signatures}
    return {key: _signature_function(key, value) for key, value in signatures.items()}


def _default_signature(obj, collected, functions):
    if "function" in collected.root:  # a function saved by itself
        traces = functions[0][1]
        return traces[0] if len(traces) == 1 else None
    root = collected.objects[0]["children"]
    with_signature = [functions[c["function"]][1] for c in root.values()
                      if "function" in c and
                      collected.functions[c["function"]][1].input_signature is not None]
    return with_signature[0][0] if len(with_signature) == 1 else None


def _returns_tensors(concrete):
    try:
        _signature_outputs(DEFAULT_SIGNATURE, concrete)
    except ValueError:
        return False
    return True


def _signature_function(key, value):
    if not isinstance(key, str) or not key:
        raise ValueError(f"signature keys must be non-empty strings, got {key!r}")
    if isinstance(value, ConcreteFunction):
        return value
    function = as_function(value)
    if function is not None and function.input_signature is not None:
        return function.get_concrete_function()
    raise ValueError(f"signature {key!r} must be an ag.function with an input_signature or a "
                     f"ConcreteFunction (f.get_concrete_function(...)), got {value!r:.80}")


def _input_names(concrete):
    names = [spec.name or p.op.name for spec, p in zip(concrete.input_specs, concrete.inputs)]
    if len(set(names)) != len(names):
        raise ValueError(f"cannot name the inputs of a signature: {names} repeat a name; give "
                         "the TensorSpecs of the input_signature distinct names")
    return names


def _signature_entry(key, concrete, index):
    return {"concrete_function": index, "inputs": _input_names(concrete),
            "outputs": _signature_outputs(key, concrete)}


def _signature_outputs(key, concrete):
    structured = concrete.structured_outputs
    if isinstance(structured, dict) and all(isinstance(k, str) for k in structured):
        named = list(structured.items())
    else:
        flat = structured if isinstance(structured, (list, tuple)) else [structured]
        named = [(f"output_{i}", v) for i, v in enumerate(flat)]
    outputs = []
    for name, value in named:
        if not isinstance(value, SymbolicTensor):
            raise ValueError(f"signature {key!r}: output {name!r} is {value!r:.60}, not a "
                             "tensor; a signature returns tensors only")
        outputs.append([name, _output_position(concrete, value)])
    return outputs


def _output_position(concrete, tensor):
    for i, t in enumerate(concrete.outputs):
        if t is tensor:
            return i
    raise AssertionError("a structured output is one of the outputs")


# --- concrete functions ----------------------------------------------------------------------


def _concrete_entry(concrete):
    placeholder_index = {id(p): i for i, p in enumerate(concrete.inputs)}
    parameters = concrete.parameters or [
        (inspect.Parameter(p.op.name, inspect.Parameter.POSITIONAL_OR_KEYWORD), p)
        for p in concrete.inputs]

    def python_value(value, role):
        found = structures.constant(value)
        if found is None:
            raise ValueError(f"cannot save a trace of {concrete.graph.name!r}: {role[0]} "
                             f"{value!r:.60}; a saved function {role[1]} tensors and Python "
                             "None, bools, numbers and strings only")
        return found

    def argument(value):
        if isinstance(value, SymbolicTensor) and id(value) in placeholder_index:
            return {"tensor": placeholder_index[id(value)]}
        return python_value(value, ("an argument is", "takes"))

    outputs = iter(range(len(concrete.outputs)))

    def result(value):
        if isinstance(value, SymbolicTensor):
            return {"tensor": next(outputs)}
        return python_value(value, ("it returns", "returns"))

    return {
        "parameters": [{"name": p.name, "kind": p.kind.name,
                        "value": structures.encode(v, argument)} for p, v in parameters],
        "inputs": [{"name": spec.name or p.op.name, "dtype": spec.dtype.name,
                    "shape": None if spec.shape.dims is None else list(spec.shape.dims)}
                   for spec, p in zip(concrete.input_specs, concrete.inputs)],
        "outputs": structures.encode(concrete.structured_outputs, result),
    }


# --- variables -------------------------------------------------------------------------------


def _variable_table(tree_variables, concretes):
    table = list(tree_variables)  # first: the object tree names them by this order
    for concrete in concretes:
        table.extend(_variables_read(concrete.graph))
    table = _unique(table)
    by_name = {}
    for v in table:
        other = by_name.setdefault(v.name, v)
        if other is not v:
            raise ValueError(f"cannot save: two different Variables are named {v.name!r}; a "
                             "saved graph names Variables, so give them distinct names")
        if v.graph is not None:
            raise ValueError(f"cannot save Variable {v.name!r}: it belongs to a graph "
                             "(a Session's), not to the program")
        if v.dtype.name == "string":
            raise ValueError(f"cannot save Variable {v.name!r}: string Variables cannot be "
                             "saved (docs/limitations.md)")
    return table


def _variables_read(graph):
    for op in graph.get_operations():
        for value in op.attrs.values():
            if isinstance(value, Variable):
                yield value
            elif isinstance(value, FuncGraph):
                yield from _variables_read(value)
