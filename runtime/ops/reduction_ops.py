"""Reductions (reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod, reduce_any,
reduce_all) and argmax / argmin.

Contract: `reduce_*(x, axis=None, keepdims=False)`: `axis` is None (all axes), an int or
a list of ints (negative counts from the end; duplicates are fine). The result keeps
x's dtype, like TensorFlow: the mean of ints is an int (truncated toward zero); sums and
products accumulate in x's dtype. Max/min of an empty axis give the dtype's lowest /
highest value (-inf / inf for floats). reduce_any / reduce_all take bools, the others
numbers. `argmax(x, axis=0, output_type=int64)`: the index of the first extreme value.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register


def _int_mean(x, axis, keepdims):
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
    count = max(x.size // max(total.size, 1), 1)
    # Truncating division, as C++ integer division does in TensorFlow's kernel.
    return np.sign(total) * (np.abs(total) // count)


def _mean(x, axis, keepdims):
    if x.dtype.kind in "iu":
        return _int_mean(x, axis, keepdims)
    with np.errstate(all="ignore"):  # mean of nothing is nan, silently
        return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _extreme(np_fn, empty_value):
    def reduce(x, axis, keepdims):
        return np_fn(x, axis=axis, keepdims=keepdims, initial=empty_value(x.dtype))

    return reduce


def _lowest(np_dtype):
    return -np.inf if np_dtype.kind == "f" else np.iinfo(np_dtype).min


def _highest(np_dtype):
    return np.inf if np_dtype.kind == "f" else np.iinfo(np_dtype).max


def _logical(np_fn):
    def reduce(x, axis, keepdims):
        return np_fn(x, axis=axis, keepdims=keepdims)

    return reduce


def _accumulate(np_fn):
    def reduce(x, axis, keepdims):
        return np_fn(x, axis=axis, keepdims=keepdims, dtype=x.dtype)

    return reduce


def _reduction(op, name, reduce, kinds, doc):
    """Register reduction `op` and return its user function `name(x, axis, keepdims)`."""

    def kernel(x, axis, keepdims):
        infer.require_kind(x.dtype, kinds)
        out = reduce(x, infer.normalize_axes(axis, x.ndim), keepdims)
        return np.asarray(out).astype(x.dtype, copy=False)

    def rule(x, axis, keepdims):
        infer.require_specs(kinds, x)
        return infer.reduced_shape(x.shape, axis, keepdims), x.dtype

    register(OpDef(op, kernel, rule))

    def user_fn(input_tensor, axis=None, keepdims=False, name=None):
        return apply(op, [convert_to_tensor(input_tensor)],
                     {"axis": _static_axis(axis), "keepdims": bool(keepdims)}, op_name=name)

    user_fn.__name__ = user_fn.__qualname__ = name
    user_fn.__doc__ = doc
    return user_fn


def _static_axis(axis):
    if axis is None:
        return None
    if np.ndim(axis) == 0:
        return int(axis)
    return tuple(int(a) for a in np.asarray(axis).reshape(-1))


N, B = infer.NUMERIC, infer.BOOL

reduce_sum = _reduction("Sum", "reduce_sum", _accumulate(np.sum), N, "Sum over `axis`.")
reduce_prod = _reduction("Prod", "reduce_prod", _accumulate(np.prod), N,
                         "Product over `axis`.")
reduce_mean = _reduction("Mean", "reduce_mean", _mean, N,
                         "Mean over `axis` (integer tensors give a truncated integer mean).")
reduce_max = _reduction("Max", "reduce_max", _extreme(np.max, _lowest), N, "Maximum over axis.")
reduce_min = _reduction("Min", "reduce_min", _extreme(np.min, _highest), N, "Minimum over axis.")
reduce_any = _reduction("Any", "reduce_any", _logical(np.any), B,
                        "Logical or over `axis`.")
reduce_all = _reduction("All", "reduce_all", _logical(np.all), B,
                        "Logical and over `axis`.")


def _arg_row(op, name, np_fn):
    def kernel(x, axis, dtype):
        infer.require_kind(x.dtype, N)
        return np_fn(x, axis=infer.normalize_axis(axis, x.ndim)).astype(dtype.np_dtype)

    def rule(x, axis, dtype):
        infer.require_specs(N, x)
        return infer.reduced_shape(x.shape, axis, False), dtype

    register(OpDef(op, kernel, rule))

    def user_fn(input, axis=None, output_type=dtypes.int64, name=None):
        axis = 0 if axis is None else int(axis)
        output_type = dtypes.as_dtype(output_type)
        if output_type not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"{user_fn.__name__}: output_type must be int32 or int64, got "
                            f"{output_type}")
        return apply(op, [convert_to_tensor(input)], {"axis": axis, "dtype": output_type},
                     op_name=name)

    user_fn.__name__ = user_fn.__qualname__ = name
    user_fn.__doc__ = f"Index of the first {name[3:]}imum along `axis` (default 0)."
    return user_fn


argmax = _arg_row("ArgMax", "argmax", np.argmax)
argmin = _arg_row("ArgMin", "argmin", np.argmin)
