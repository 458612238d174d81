"""Shape and dtype rules shared by many ops (the `infer` column of the registry).

Contract: each rule takes specs (objects with `.shape`, `.dtype`) and attrs and returns
`(TensorShape, DType)`; it raises ValueError/TypeError with a message that says what is
wrong (the registry adds the op name and the input shapes).
"""

from runtime import dtypes
from runtime.shapes import TensorShape


def broadcast_shapes(a, b):
    """numpy broadcasting on static shapes; unknown dims stay unknown where they matter."""
    if a.dims is None or b.dims is None:
        return TensorShape(None)
    rank = max(len(a.dims), len(b.dims))
    da = (1,) * (rank - len(a.dims)) + a.dims
    db = (1,) * (rank - len(b.dims)) + b.dims
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise ValueError(f"shapes {a} and {b} cannot be broadcast together")
    return TensorShape(out)


def same_dtype(*specs):
    first = specs[0].dtype
    for s in specs[1:]:
        if s.dtype is not first:
            raise TypeError(f"inputs must have the same dtype, got {first.name} and {s.dtype.name}")
    return first


def unary(x, **_):
    return x.shape, x.dtype


def unary_float(x, **_):
    if not x.dtype.is_floating:
        raise TypeError(f"expects a floating-point tensor, got {x.dtype.name}")
    return x.shape, x.dtype


def binary(x, y, **_):
    return broadcast_shapes(x.shape, y.shape), same_dtype(x, y)


def comparison(x, y, **_):
    same_dtype(x, y)
    return broadcast_shapes(x.shape, y.shape), dtypes.bool_


def logical(x, y, **_):
    for s in (x, y):
        if not s.dtype.is_bool:
            raise TypeError(f"logical ops need bool tensors, got {s.dtype.name}")
    return broadcast_shapes(x.shape, y.shape), dtypes.bool_


def reduced_shape(shape, axis, keepdims):
    if shape.dims is None:
        return TensorShape(None)
    rank = len(shape.dims)
    if axis is None:
        axes = set(range(rank))
    else:
        axes = set()
        for a in (axis if isinstance(axis, (tuple, list)) else (axis,)):
            if not -rank <= a < max(rank, 1):
                raise ValueError(f"axis {a} is out of range for a tensor of rank {rank}")
            axes.add(a % rank if rank else 0)
    if keepdims:
        return TensorShape(1 if i in axes else d for i, d in enumerate(shape.dims))
    return TensorShape(d for i, d in enumerate(shape.dims) if i not in axes)
