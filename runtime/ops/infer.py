"""Shape and dtype rules shared by many ops (the `infer` column of the registry).

Contract: each rule takes specs (objects with `.shape`, `.dtype`) and attrs and returns
`(TensorShape, DType)`; it raises ValueError/TypeError with a message that says what is
wrong (the registry adds the op name and the input shapes).
"""

from autograph_py.runtime import dtypes
from autograph_py.runtime.constant_values import constant_value
from autograph_py.runtime.shapes import TensorShape


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


def normalize_axes(axis, rank):
    """`axis` (None, an int or a sequence) as a sorted tuple of distinct axes in [0, rank).

    Kernels call it too, so eager and graph mode accept and reject the same axes.
    """
    if axis is None:
        return tuple(range(rank))
    axes = set()
    for a in (axis if isinstance(axis, (tuple, list)) else (axis,)):
        axes.add(normalize_axis(a, rank))
    return tuple(sorted(axes))


def normalize_axis(axis, rank, extra=0):
    """One axis in [0, rank + extra) (`extra=1` where an axis may be appended)."""
    size = rank + extra
    if not -size <= axis < size:
        raise ValueError(f"axis {axis} is out of range for a tensor of rank {rank} "
                         f"(expected {-size} <= axis < {size})")
    return axis % size


def reduced_shape(shape, axis, keepdims):
    if shape.dims is None:
        return TensorShape(None)
    axes = set(normalize_axes(axis, len(shape.dims)))
    if keepdims:
        return TensorShape(1 if i in axes else d for i, d in enumerate(shape.dims))
    return TensorShape(d for i, d in enumerate(shape.dims) if i not in axes)


# Dtype families an op accepts, as numpy kind letters: one check serves the infer rule
# (on DTypes) and the kernel (on arrays), so both modes reject the same inputs.
NUMERIC = "iuf"
FLOAT = "f"
INTEGER = "iu"
BOOL = "b"
ANY = "iufbO"
_FAMILY_NAMES = {NUMERIC: "numeric", FLOAT: "floating-point", INTEGER: "integer",
                 BOOL: "bool", ANY: "any"}


def require_kind(np_dtype, kinds, role="inputs"):
    """Raise a TypeError unless `np_dtype` (a numpy dtype) is in the family `kinds`."""
    if np_dtype.kind not in kinds:
        raise TypeError(f"{role} must be {_FAMILY_NAMES[kinds]} tensors, got "
                        f"{dtypes.as_dtype(np_dtype).name}")


def require_specs(kinds, *specs):
    for spec in specs:
        require_kind(spec.dtype.np_dtype, kinds)


def broadcast_all(*shapes):
    result = shapes[0]
    for shape in shapes[1:]:
        result = broadcast_shapes(result, shape)
    return result


def _sliced_shape(op):
    """The dims of `shape(x)[a:b:c]` (static bounds, x of known rank), else None."""
    source = op.inputs[0].op
    items = op.attrs["spec"]
    if source.type != "Shape" or len(items) != 1 or items[0][0] != "slice" or \
            any(isinstance(b, tuple) for b in items[0][1:]):
        return None
    dims = source.inputs[0].shape.dims
    return None if dims is None else tuple(dims[slice(*items[0][1:])])


def constant_dims(spec):
    """A 1-D int tensor used as a shape: a tuple of its statically known entries (None for
    unknown ones; -1 stays -1 for reshape), or None when even its length is unknown."""
    value = constant_value(spec)
    if value is not None:
        return tuple(int(d) for d in value)
    op = getattr(spec, "op", None)
    if op is not None and op.type == "Shape":
        return op.inputs[0].shape.dims
    if op is not None and op.type == "Pack" and all(t.shape.rank == 0 for t in op.inputs):
        return tuple(None if (v := constant_value(t)) is None else int(v) for t in op.inputs)
    # TensorFlow's ConstantPartialShape: slices of a shape, and concatenations of parts
    if op is not None and op.type == "StridedSlice":
        dims = _sliced_shape(op)
        if dims is not None:
            return dims
    if op is not None and op.type == "ConcatV2" and op.attrs["axis"] in (0, -1):
        parts = [constant_dims(t) for t in op.inputs]
        if all(p is not None for p in parts):
            return sum(parts, ())
    if spec.shape.rank != 1:
        raise ValueError(f"a shape must be a 1-D integer tensor, got shape {spec.shape}")
    length = spec.shape.dims[0]
    return None if length is None else (None,) * length
