"""The values of graph tensors known while building (TensorFlow's eval_const_tensor.cc).

Contract: `constant_value(tensor)` is the value of a graph tensor when the graph fixes it
(a `Const`; what static shapes tell: `shape(x)`, `size(x)`, `rank(x)`, one known dim
`shape(x)[i]`; small integer values computed by pure ops from those, with their kernels),
else None. Shape inference (runtime/ops/infer.py) gives static shapes from it, and the
plan compiler (runtime/plan/expressions.py) prints such values as constants. Outside the
ops package so the plan compiler can read it: it imports nothing of the runtime but numpy.
"""

import numpy as np

_FOLD_OPS = 16  # ops computed for one question: a shape argument is a small computation
_FOLD_SIZE = 64  # elements of a value computed while building


def constant_value(spec):
    """The value of a graph tensor when it is known while building, else None, as
    TensorFlow's shape inference finds it (eval_const_tensor.cc): a `Const` output; what
    static shapes tell (TryInferFromShapes): `shape(x)`, `size(x)` of a fully defined `x`,
    `rank(x)` of a known rank, one dim `shape(x)[i]` or `unstack(shape(x))[i]` when that
    dim is known, even if others are not; and a small integer value computed by pure ops
    from such values (`shape(x)[0] // 2`, `[shape(x)[0], 1]`), run with their kernels, at
    most `_FOLD_OPS` of them (a kernel that fails leaves the value unknown: the graph
    raises when it runs). Lets shape rules give static shapes for such arguments
    (`zeros([shape(x)[0], 3])`, `tile(y, [shape(x)[0], 1])`, `range(shape(x)[0])`); the
    tensors themselves stay tensors, as in TensorFlow."""
    return _value(spec, [_FOLD_OPS])


def _value(spec, budget):
    op = getattr(spec, "op", None)
    if op is None:
        return None
    if op.type == "Const":
        return op.attrs["value"]
    if op.type == "Rank":
        rank = op.inputs[0].shape.rank
        return None if rank is None else np.array(rank, spec.dtype.np_dtype)
    if op.type in ("Shape", "Size"):
        shape = op.inputs[0].shape
        if not shape.is_fully_defined():
            return None
        value = shape.dims if op.type == "Shape" else shape.num_elements()
        return np.array(value, dtype=spec.dtype.np_dtype)
    dim = _dim_of_shape(op, spec, budget)
    if dim is not None or not _foldable(op, spec) or budget[0] <= 0:
        return dim
    budget[0] -= 1
    values = []
    for t in op.inputs:
        value = _value(t, budget)
        if value is None:
            return None
        values.append(value)
    try:
        return np.asarray(op.opdef.kernel(*values, **op.attrs))
    except (ValueError, TypeError, IndexError, ArithmeticError):
        return None


def _foldable(op, spec):
    opdef = op.opdef
    shape = spec.shape
    return bool(op.inputs) and not opdef.stateful and not opdef.needs_context and \
        opdef.num_outputs == 1 and spec.dtype.np_dtype.kind in "iub" and \
        shape.is_fully_defined() and shape.rank <= 1 and shape.num_elements() <= _FOLD_SIZE


def _dim_of_shape(op, spec, budget):
    """Dim i of `x` for `shape(x)[i]` (an index known while building) or
    `unstack(shape(x))[i]`, when that dim is known; else None."""
    source = op.inputs[0].op if op.inputs else None
    if source is None or source.type != "Shape" or source.inputs[0].shape.rank is None:
        return None
    if op.type == "Unpack" and op.attrs["axis"] in (0, -1):
        index = spec.value_index
    elif op.type == "StridedSlice" and len(op.attrs["spec"]) == 1:
        kind, *item = op.attrs["spec"][0]
        index = item[0] if kind == "int" else \
            _value(op.inputs[1 + item[0]], budget) if kind == "dyn" else None
    else:
        return None
    dims = source.inputs[0].shape.dims
    if index is None or not -len(dims) <= index < len(dims) or dims[index] is None:
        return None
    return np.array(dims[index], dtype=spec.dtype.np_dtype)
