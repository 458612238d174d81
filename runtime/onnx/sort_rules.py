"""ONNX rows of sorting: `Sort`, `ArgSort` and `TopKV2`, each one ONNX `TopK`.

- ONNX's `TopK` puts equal values in index order, in both directions (`largest=1` or
  0): our stable order (runtime/ops/sort_ops.py), so ties come out alike.
- A sort along an axis is a `TopK` of the whole axis: K is the axis's size, read with
  `Shape`'s `start`/`end` (opset 15 on), so an unknown size is fine.
- Where a nan lands is not specified by ONNX; ours sorts it last (numpy's rule). A model
  sorting nans may order them differently (docs/limitations.md).
- Indices come back int64; `ArgSort` gives int32, `TopKV2` its `index_type`.
"""

import numpy as np
from autograph_py.runtime.onnx.table import register_conversion


def _axis_size(g, x, axis):
    """The size of `x` along `axis`, as a 1-element int64 tensor (TopK's K)."""
    bounds = {"start": axis} if axis == -1 else {"start": axis, "end": axis + 1}
    return g.node("Shape", [x], **bounds)


def _indices(g, indices, dtype):
    dtype = np.dtype(dtype)
    return indices if dtype == np.int64 else g.cast(indices, dtype)


@register_conversion("Sort", "ArgSort")
def sort(g, op, x):
    axis = int(op.attrs["axis"])
    largest = int(op.attrs["direction"] == "DESCENDING")
    values, indices = g.node("TopK", [x, _axis_size(g, x, axis)], 2, axis=axis,
                             largest=largest, sorted=1, name=op.name)
    if op.type == "Sort":
        return values
    return _indices(g, indices, np.int32)


@register_conversion("TopKV2")
def top_k(g, op, x, *k_input):
    static = op.attrs["k"]
    if static is not None:
        k = g.int64s([int(static)])
    else:
        k = g.node("Reshape", [g.cast(k_input[0], np.int64), g.int64s([1])])
    values, indices = g.node("TopK", [x, k], 2, axis=-1, largest=1, sorted=1, name=op.name)
    return values, _indices(g, indices, op.attrs["index_type"].np_dtype)
