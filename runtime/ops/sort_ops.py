"""Sorting: sort, argsort, math.top_k (TensorFlow's names and argument order).

Contract:
- `sort(values, axis=-1, direction='ASCENDING')`: the values sorted along `axis`.
- `argsort(values, axis=-1, direction='ASCENDING', stable=False)`: int32 indices that
  sort `values` along `axis`. The order is always stable (equal values keep their
  order, in both directions), which satisfies `stable=False` too.
- `top_k(input, k=1, sorted=True, index_type=int32)`: `(values, indices)` of the k
  largest entries along the last axis, largest first, equal values in index order
  (TensorFlow's tie rule); `k` static or a scalar tensor, at most the last dim; indices
  int32 or int64.
Numeric dtypes only. `direction` is 'ASCENDING' or 'DESCENDING'.
"""

from collections import namedtuple

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer, int_args
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape

DIRECTIONS = ("ASCENDING", "DESCENDING")


def stable_argsort(x, axis, descending):
    """Indices sorting `x` along `axis`; ties keep their order in both directions."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Sorting the reversed array ascending and reversing the result puts ties last-first
    # twice over, i.e. back in their original order.
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")
    return x.shape[axis] - 1 - np.flip(flipped, axis)


def _sort_kernel(x, axis, direction):
    infer.require_kind(x.dtype, infer.NUMERIC)
    axis = infer.normalize_axis(axis, x.ndim)
    ascending = np.sort(x, axis=axis)
    return np.flip(ascending, axis) if direction == "DESCENDING" else ascending


def _argsort_kernel(x, axis, direction):
    infer.require_kind(x.dtype, infer.NUMERIC)
    axis = infer.normalize_axis(axis, x.ndim)
    return stable_argsort(x, axis, direction == "DESCENDING").astype(np.int32)


def _along_axis_infer(dtype):
    """Shape rule of sort/argsort: the input's shape, `dtype` (None: the input's)."""

    def rule(x, axis, direction):
        infer.require_specs(infer.NUMERIC, x)
        if x.shape.rank is not None:
            infer.normalize_axis(axis, x.shape.rank)
        return x.shape, dtype or x.dtype

    return rule


register(OpDef("Sort", _sort_kernel, _along_axis_infer(None)))
register(OpDef("ArgSort", _argsort_kernel, _along_axis_infer(dtypes.int32)))


def _direction(direction, op):
    direction = str(direction).upper()
    if direction not in DIRECTIONS:
        raise ValueError(f"{op}: direction must be 'ASCENDING' or 'DESCENDING', got "
                         f"{direction!r}")
    return direction


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis`."""
    return apply("Sort", [convert_to_tensor(values)],
                 {"axis": int(axis), "direction": _direction(direction, "sort")}, op_name=name)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis` (always a stable order)."""
    return apply("ArgSort", [convert_to_tensor(values)],
                 {"axis": int(axis), "direction": _direction(direction, "argsort")},
                 op_name=name)


# --- top_k ----------------------------------------------------------------------------


def _check_k(k, columns):
    if k < 0:
        raise ValueError(f"k must be non-negative, got {k}")
    if columns is not None and k > columns:
        raise ValueError(f"input must have at least k={k} entries in its last dimension, got "
                         f"{columns}")


def _top_k_kernel(x, *k_input, k, sorted, index_type):
    infer.require_kind(x.dtype, infer.NUMERIC)
    if x.ndim == 0:
        raise ValueError("top_k needs a tensor of rank >= 1, got a scalar")
    count = int(int_args.resolve(k, k_input))
    _check_k(count, x.shape[-1])
    indices = stable_argsort(x, -1, descending=True)[..., :count]
    return np.take_along_axis(x, indices, -1), indices.astype(index_type.np_dtype)


def _top_k_infer(x, *k_input, k, sorted, index_type):
    infer.require_specs(infer.NUMERIC, x)
    known = int_args.known(k, k_input)
    if x.shape.dims is None:
        return [(TensorShape(None), x.dtype), (TensorShape(None), index_type)]
    if not x.shape.dims:
        raise ValueError("top_k needs a tensor of rank >= 1, got a scalar")
    count = None if known is None else int(known)
    if count is not None:
        _check_k(count, x.shape.dims[-1])
    shape = TensorShape(x.shape.dims[:-1] + (count,))
    return [(shape, x.dtype), (shape, index_type)]


register(OpDef("TopKV2", _top_k_kernel, _top_k_infer, num_outputs=2))

TopKV2 = namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """The `k` largest entries along the last axis and their indices, largest first."""
    index_type = dtypes.as_dtype(index_type)
    if index_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"top_k: index_type must be int32 or int64, got {index_type.name}")
    static, k_input = int_args.split(k, "top_k", "k", 0)
    values, indices = apply("TopKV2", [convert_to_tensor(input)] + k_input,
                            {"k": static, "sorted": bool(sorted), "index_type": index_type},
                            op_name=name)
    return TopKV2(values, indices)
