"""The ONNX conversion table: one row per op type, as runtime/xla/table.py's lowerings.

Contract:
- `@register_conversion("Add", ...)` registers `rule(g, op, *inputs)`: `g` is the
  `Emitter` of the ONNX graph being written (emitter.py), `inputs` the ONNX value names
  of the op's inputs; attrs and dtypes are read from `op`. A rule returns one value
  name, or a tuple of names for ops with several outputs (empty for none).
- `REFUSED[type]` says why an op is never exported (effects and host calls: a model is
  a pure function of its inputs); `rule_for(op)` raises an `ExportError` naming the op,
  its type and the user's file:line for those and for ops without a row.
- This module imports no onnx.
"""

from autograph_py.runtime.rule_table import RuleTable

_EFFECT = ("an ONNX model is a pure function of its inputs: it cannot print, assign "
           "Variables, draw random numbers or check assertions")
REFUSED = {
    **dict.fromkeys(("PrintV2", "Assert", "AssignVariable", "AssignAddVariable",
                     "AssignSubVariable", "RandomUniform", "RandomNormal"), _EFFECT),
    "Placeholder": "a placeholder inside a function must be an input of the model",
    **dict.fromkeys(
        ("TensorArrayScatter", "TensorArrayCheckRead", "TensorArrayStack",
         "TensorArrayBufferGrad"),
        "a TensorArray's checks are data-dependent errors an ONNX model cannot raise"),
}


class ExportError(TypeError):
    """A graph holds an op (or a use of one) that the ONNX export cannot write."""


_TABLE = RuleTable(ExportError, ("onnx export", "cannot be exported"),
                   "ONNX conversions", "it has no ONNX conversion", REFUSED)
register_conversion = _TABLE.register
converted_names = _TABLE.names
export_error = _TABLE.error
rule_for = _TABLE.rule_for
