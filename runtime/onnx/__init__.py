"""ONNX export of our graphs (`ag.onnx.export`, docs/export.md "ONNX").

Contract:
- `model.graph_to_model(graph, inputs, outputs, ...)` translates a traced graph into an
  `onnx.ModelProto` of one pinned opset (`OPSET`), through the conversion table
  (`table.py`, one row per op type, like runtime/xla's lowering table); `If` becomes
  ONNX `If`, `While` becomes `Loop` (control_flow_rules.py); `text.model_text(model)`
  lists a model as indented text.
- Only this package imports `onnx`, and only lazily (`require_onnx`), so the numpy
  runtime never needs it; nothing here imports `autograph_py`'s top level.
"""

OPSET = 18  # ReduceMax/Min/Mean take their axes as inputs from 18 on, as ReduceSum does.


def require_onnx():
    """The `onnx` module, or an ImportError naming the `[onnx]` extra."""
    try:
        import onnx  # noqa: PLC0415  (the optional [onnx] extra)
    except ImportError as e:
        raise ImportError("ONNX export needs the onnx package: pip install "
                          "'autograph-py[onnx]'") from e
    return onnx
