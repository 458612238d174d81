"""ONNX rows of reductions, arg-max/min and cumulative sums.

- Reductions over `axis` (None: every axis) take their axes as an input (opset 18), with
  `keepdims`; `reduce_any`/`reduce_all` are the max/min of the bools as uint8: over
  nothing, ONNX's max/min is the type's lowest/highest value, so uint8's 0/255 cast back
  to False/True as numpy's any/all of nothing (int32's lowest would be True).
- `Mean` of integers is refused: ours truncates toward zero, ONNX's `ReduceMean` of
  integers does not say how it rounds.
- `ArgMax`/`ArgMin` take the first extreme (numpy's rule, ONNX's
  `select_last_index=0`); ONNX gives int64, cast to the op's dtype.
- `Cumsum` is `CumSum` with the same `exclusive`/`reverse` meaning. `Cumprod` has no
  ONNX operator and no row.
"""

import numpy as np
from autograph_py.runtime.onnx.table import export_error, register_conversion


def _reduction(onnx_type):
    def rule(g, op, x):
        dtype = np.dtype(op.inputs[0].dtype.np_dtype)
        if op.type == "Mean" and dtype.kind in "iu":
            raise export_error(op, "the integer mean truncates toward zero; ONNX's "
                                   "ReduceMean of integers does not say how it rounds")
        axis = op.attrs.get("axis")
        inputs = [x] if axis is None else [x, g.int64s(axis)]
        keepdims = int(bool(op.attrs.get("keepdims", False)))
        if dtype.kind == "b":  # Any / All: max / min over 0 and 1
            inputs[0] = g.cast(x, np.uint8)
            return g.cast(g.node(onnx_type, inputs, keepdims=keepdims), np.bool_)
        return g.node(onnx_type, inputs, keepdims=keepdims, name=op.name)

    return rule


for _ours, _theirs in {"Sum": "ReduceSum", "Prod": "ReduceProd", "Max": "ReduceMax",
                       "Min": "ReduceMin", "Mean": "ReduceMean", "Any": "ReduceMax",
                       "All": "ReduceMin"}.items():
    register_conversion(_ours)(_reduction(_theirs))


@register_conversion("ArgMax", "ArgMin")
def arg_extreme(g, op, x):
    index = g.node(op.type, [x], axis=int(op.attrs["axis"]), keepdims=0,
                   select_last_index=0, name=op.name)
    dtype = np.dtype(op.attrs["dtype"].np_dtype)
    return index if dtype == np.int64 else g.cast(index, dtype)


@register_conversion("Cumsum")
def cumsum(g, op, x):
    return g.node("CumSum", [x, g.const(int(op.attrs["axis"]), np.int64)],
                  exclusive=int(op.attrs["exclusive"]), reverse=int(op.attrs["reverse"]),
                  name=op.name)
