"""Ops that create tensors: fill (zeros, ones), zeros_like, ones_like, range.

Contract:
- `zeros(shape, dtype=float32)`, `ones(...)`, `fill(dims, value)`: one `Fill` op; the
  shape may be static or a 1-D int tensor (see `shape_args`).
- `zeros_like(x, dtype=None)`, `ones_like(...)`: same shape as `x` (known at run time).
- `range(start, limit=None, delta=1, dtype=None)` like tf.range: without `dtype`, the
  widest of the arguments' dtypes (Python int → int32, float → float32; any float makes
  the result floating). Arguments are cast to the result dtype. Like Python's range (and
  unlike tf.range, which raises), an empty range is just empty; delta 0 is a ValueError.
"""

import math

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer, shape_args
from autograph_py.runtime.ops.array_ops import cast
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor


def _fill_kernel(value, *shape_input, shape):
    if value.ndim:
        raise ValueError(f"the fill value must be a scalar, got shape {value.shape}")
    shape = shape_args.resolve(shape, shape_input)
    if value.dtype.kind in "biu" and not value:  # (zeroed pages: the fastest fill)
        return np.zeros(shape, value.dtype)
    out = np.empty(shape, value.dtype)
    out.fill(value)  # (np.full's bits, without its µs of Python)
    return out


def _fill_infer(value, *shape_input, shape):
    if value.shape.rank not in (0, None):
        raise ValueError(f"the fill value must be a scalar, got shape {value.shape}")
    return TensorShape(shape_args.infer_target(shape, shape_input)), value.dtype


register(OpDef("Fill", _fill_kernel, _fill_infer))


def fill(dims, value, name=None, _op="fill"):
    """A tensor of shape `dims` filled with the scalar `value` (its dtype)."""
    static, shape_input = shape_args.split(dims, _op)
    return apply("Fill", [convert_to_tensor(value)] + shape_input, {"shape": static},
                 op_name=name)


def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return fill(shape, np.zeros((), dtype.np_dtype), name=name, _op="zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return fill(shape, np.ones((), dtype.np_dtype), name=name, _op="ones")


def _like_row(op, np_fn):
    def kernel(x, dtype):
        return np_fn(x.shape, dtype=x.dtype if dtype is None else dtype.np_dtype)

    def rule(x, dtype):
        return x.shape, x.dtype if dtype is None else dtype

    register(OpDef(op, kernel, rule))

    def user_fn(x, dtype=None, name=None):
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        return apply(op, [convert_to_tensor(x)], {"dtype": dtype}, op_name=name)

    return user_fn


zeros_like = _like_row("ZerosLike", np.zeros)
ones_like = _like_row("OnesLike", np.ones)
zeros_like.__name__, ones_like.__name__ = "zeros_like", "ones_like"


def _range_length(start, limit, delta):
    if delta == 0:
        raise ValueError("range: delta must not be 0")
    if isinstance(start, int) and isinstance(limit, int) and isinstance(delta, int):
        return max(0, -((start - limit) // delta))  # exact ceil division on ints
    return max(0, math.ceil((limit - start) / delta))


def _range_kernel(start, limit, delta):
    infer.require_kind(start.dtype, infer.NUMERIC)
    n = _range_length(start.item(), limit.item(), delta.item())
    return (np.arange(n, dtype=start.dtype) * delta + start).astype(start.dtype, copy=False)


def _range_infer(start, limit, delta):
    infer.require_specs(infer.NUMERIC, start, limit, delta)
    dtype = infer.same_dtype(start, limit, delta)
    for spec in (start, limit, delta):
        if spec.shape.rank not in (0, None):
            raise ValueError(f"range arguments must be scalars, got shape {spec.shape}")
    values = [infer.constant_value(s) for s in (start, limit, delta)]
    if any(v is None for v in values):
        return TensorShape([None]), dtype
    return TensorShape([_range_length(*(v.item() for v in values))]), dtype


register(OpDef("Range", _range_kernel, _range_infer))


def _argument_dtype(value):
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return value.dtype
    return dtypes.float32 if isinstance(value, float) else dtypes.int32


def _range_argument(value, dtype):
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return cast(convert_to_tensor(value), dtype)
    return convert_to_tensor(np.asarray(value, dtype=dtype.np_dtype))


def range_(start, limit=None, delta=1, dtype=None, name=None):
    """The sequence start, start + delta, ... up to (excluding) limit, as a 1-D tensor."""
    if limit is None:
        start, limit = 0, start
    args = (start, limit, delta)
    if dtype is None:
        dtype = max((_argument_dtype(a) for a in args),
                    key=lambda d: (d.is_floating, d.np_dtype.itemsize))
    dtype = dtypes.as_dtype(dtype)
    return apply("Range", [_range_argument(a, dtype) for a in args], op_name=name)


range_.__name__ = "range"
