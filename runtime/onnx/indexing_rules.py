"""The ONNX row of `StridedSlice` (`x[index]`, runtime/ops/indexing.py's spec).

The spec is applied item by item on a running value, an axis pointer walking its dims:
an int or scalar tensor index is a `Gather` with a scalar index (the dim goes, a
negative index counts from the end, as numpy); a slice is a `Slice` on that one axis
(a bound left out is the end in the step's direction: INT64_MIN/MAX, which ONNX clamps
as Python does); a newaxis is an `Unsqueeze`; an ellipsis skips the dims nobody indexes
(the input's rank must be known); one integer array is a `Gather` (numpy's rule for a
single array index). Indices are not checked: numpy raises on an index out of range,
the model reads what ONNX's `Gather` reads (docs/limitations.md).
"""

import numpy as np
from autograph_py.runtime.onnx.table import export_error, register_conversion

_CONSUMES = ("int", "dyn", "slice", "array")
_LOW, _HIGH = np.iinfo(np.int64).min, np.iinfo(np.int64).max


def _one(g, value):
    """A bound as a 1-element int64 tensor: a constant, or an input cast and reshaped."""
    if isinstance(value, str):
        return g.node("Reshape", [g.cast(value, np.int64), g.const([1], np.int64)])
    return g.const([value], np.int64)


@register_conversion("StridedSlice")
def strided_slice(g, op, x, *dynamic):
    spec = op.attrs["spec"]
    rank = op.inputs[0].shape.rank
    if sum(item[0] == "array" for item in spec) > 1:
        raise export_error(op, "indexing with several integer arrays (numpy's broadcast "
                               "of the index arrays) has no ONNX conversion")
    axis = 0
    for item in spec:
        kind = item[0]
        if kind == "int":
            x = g.node("Gather", [x, g.const(item[1], np.int64)], axis=axis)
        elif kind == "dyn":
            x = g.node("Gather", [x, dynamic[item[1]]], axis=axis)
        elif kind == "array":
            x = g.node("Gather", [x, dynamic[item[1]]], axis=axis)
            index_rank = op.inputs[1 + item[1]].shape.rank
            if index_rank is None:
                raise export_error(op, "an index array of unknown rank")
            axis += index_rank
        elif kind == "newaxis":
            x = g.node("Unsqueeze", [x, g.const([axis], np.int64)])
            axis += 1
        elif kind == "ellipsis":
            if rank is None:
                raise export_error(op, "an ellipsis in the index of a tensor of unknown rank")
            axis += rank - sum(i[0] in _CONSUMES for i in spec)
        else:
            x = _slice(g, op, x, axis, item[1:], dynamic)
            axis += 1
    return g.node("Identity", [x], name=op.name)


def _slice(g, op, x, axis, bounds, dynamic):
    start, stop, step = (dynamic[b[1]] if isinstance(b, tuple) else b for b in bounds)
    if isinstance(step, str) and (start is None or stop is None):
        raise export_error(op, "a slice with a step computed at run time needs both bounds")
    backward = step is not None and not isinstance(step, str) and step < 0
    if start is None:
        start = _HIGH if backward else 0
    if stop is None:
        stop = _LOW if backward else _HIGH
    step = 1 if step is None else step
    return g.node("Slice", [x, _one(g, start), _one(g, stop), g.const([axis], np.int64),
                            _one(g, step)])
