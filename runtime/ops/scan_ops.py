"""Cumulative sums and products: cumsum, cumprod (TensorFlow's names and argument order).

Contract: `cumsum(x, axis=0, exclusive=False, reverse=False)`: along `axis`, entry i is
the sum of entries 0..i (`exclusive`: 0..i-1, so the first is 0; `reverse`: i..n-1, or
i+1..n-1 when exclusive). `cumprod` likewise with products (an exclusive product starts
at 1). Numeric dtypes; the result keeps x's dtype (accumulating in it, like TF).
"""

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register


def _scan_kernel(np_fn, identity):
    def kernel(x, axis, exclusive, reverse):
        infer.require_kind(x.dtype, infer.NUMERIC)
        axis = infer.normalize_axis(axis, x.ndim)
        if reverse:
            x = np.flip(x, axis)
        out = np_fn(x, axis=axis, dtype=x.dtype)
        if exclusive and x.shape[axis]:
            # Shift by one along the axis; the identity comes in first.
            first = np.full_like(np.take(out, [0], axis=axis), identity)
            out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis)
        return np.flip(out, axis) if reverse else out

    return kernel


def _scan_infer(x, axis, exclusive, reverse):
    infer.require_specs(infer.NUMERIC, x)
    if x.shape.rank is not None:
        infer.normalize_axis(axis, x.shape.rank)
    return x.shape, x.dtype


def _scan(op, name, np_fn, identity, doc):
    """Register scan `op` and return its user function `name(x, axis, exclusive, reverse)`."""
    register(OpDef(op, _scan_kernel(np_fn, identity), _scan_infer))

    def user_fn(x, axis=0, exclusive=False, reverse=False, name=None):
        return apply(op, [convert_to_tensor(x)], {"axis": int(axis), "exclusive": bool(exclusive),
                                                  "reverse": bool(reverse)}, op_name=name)

    user_fn.__name__ = user_fn.__qualname__ = name
    user_fn.__doc__ = doc
    return user_fn


cumsum = _scan("Cumsum", "cumsum", np.cumsum, 0, "Cumulative sum along `axis`.")
cumprod = _scan("Cumprod", "cumprod", np.cumprod, 1, "Cumulative product along `axis`.")
