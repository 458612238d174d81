"""`ag.onnx.export`: a function traced once and written as an ONNX model (docs/export.md).

Contract:
- `export(fn, *input_signature, path=None) -> onnx.ModelProto`. `fn` is a plain Python
  function (converted and traced as `ag.function` would) or an `ag.function`, also one
  bound to an object (its own `input_signature` serves when none is given);
  `input_signature` is `ag.TensorSpec`s, one per parameter (nested structures of them as
  `ag.function` takes them), of known rank (ONNX's checker wants every input's rank).
- The model's inputs are named after the function's parameters (a parameter holding
  several tensors gives `x`, `x_1`, ...); its outputs are the tensors of the flattened
  result in order, named `output_0`, `output_1`, ... A result holding a Python value
  (not a tensor) is refused: an ONNX output is a tensor.
- The translation is runtime/onnx/ (one row per op, `If` → `If`, `While` → `Loop`,
  Python's `//` and `%` exact); ops with effects (print, Variable assignments, random)
  and ops without a row are refused by an `ExportError` naming the op and the user's
  file:line. Variables read become initializers holding their values now.
- `path`: the model is also written there (its serialized bytes, as `onnx.save_model`).
- Importing this module (as `import autograph_py` does, lazily) imports no onnx.
"""

from autograph_py.runtime import nest as _nest
from autograph_py.runtime.onnx import OPSET
from autograph_py.runtime.onnx.table import ExportError
from autograph_py.runtime.tensor import SymbolicTensor as _SymbolicTensor
from autograph_py.tracing.function import function as _function


def export(fn, *input_signature, path=None):
    """Trace `fn` for `input_signature` and return (and, with `path`, save) its ONNX
    model."""
    from autograph_py.runtime.onnx.model import graph_to_model  # noqa: PLC0415  (onnx)

    if hasattr(fn, "get_concrete_function"):  # an ag.function, or one bound to an object
        concrete = fn.get_concrete_function(*input_signature)
    else:
        if not input_signature:
            raise TypeError("ag.onnx.export needs an input_signature: one ag.TensorSpec "
                            "per parameter of the function")
        concrete = _function(fn, input_signature=list(input_signature)) \
            .get_concrete_function()
    flat = _nest.flatten(concrete.structured_outputs)
    tensors = [leaf for leaf in flat if isinstance(leaf, _SymbolicTensor)]
    # The graph first: an op it refuses (an assignment in a function returning None)
    # says more than the Python value does.
    model = graph_to_model(
        concrete.graph, concrete.inputs, tensors, _input_names(concrete),
        [f"output_{i}" for i in range(len(tensors))],
        name=getattr(fn, "__name__", None) or getattr(fn, "name", "main"))
    for i, leaf in enumerate(flat):
        if not isinstance(leaf, _SymbolicTensor):
            raise ExportError(f"onnx export: {getattr(fn, '__name__', fn)} returns a Python "
                              f"value ({leaf!r}, result {i} of the flattened result); an "
                              "ONNX model's outputs are tensors: return ag.constant(...)")
    if path is not None:
        # onnx.save_model's own write for a model without external data; the
        # runtime/onnx package stays the only importer of onnx.
        with open(path, "wb") as file:
            file.write(model.SerializeToString())
    return model


def _input_names(concrete):
    """Each placeholder named after the parameter it came from (the placeholder's own
    name when the trace has no parameters)."""
    names = {}
    for parameter, value in concrete.parameters:
        for tensor in _nest.flatten(value):
            if isinstance(tensor, _SymbolicTensor):
                names[id(tensor)] = parameter.name
    return [names.get(id(p), p.op.name) for p in concrete.inputs]


__all__ = ["export", "ExportError", "OPSET"]
