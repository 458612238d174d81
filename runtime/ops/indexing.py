"""Tensor indexing, `x[index]`, as one op: `StridedSlice`.

Contract: `strided_slice(x, index)` accepts what numpy basic and integer-array indexing
accept: ints, slices (bounds None, negative, steps), None / newaxis, one Ellipsis, int
tensors (a scalar removes the dimension; symbolic ones are op inputs, so the index is
dynamic in a graph), and lists / arrays / int tensors of rank >= 1 (numpy "fancy"
indexing, gather-like). Boolean masks are rejected. The static part of the index is
the attr `spec`; tensors are inputs, referred to from `spec` by position.
An integer index out of range raises IndexError naming the index and the axis size
(numpy's message) — at build time when it is static and the dim is known, else at run
time; -1 counts from the end, nothing is clipped.

Spec items (tuples, so graphs print and serialize them):
  ("int", i)          a static index (removes the dim)
  ("dyn", k)          scalar int tensor input k (removes the dim)
  ("slice", a, b, c)  bounds None, an int, or ("dyn", k)
  ("newaxis",)        a new dim of size 1
  ("ellipsis",)       as many full slices as needed
  ("array", k)        int tensor input k of rank >= 1 (fancy indexing)
"""

import numbers

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, Tensor

_CONSUMES_A_DIM = ("int", "dyn", "slice", "array")


def _scalar_index(array):
    infer.require_kind(array.dtype, infer.INTEGER, "index tensors")
    if array.ndim:
        raise TypeError(f"a slice bound must be a scalar, got shape {array.shape}")
    return int(array)


def build_index(spec, dynamic):
    """The numpy index for `spec` given the values of the dynamic inputs (also used by
    gradient rules to scatter into the input's shape)."""

    def bound(b):
        return _scalar_index(dynamic[b[1]]) if isinstance(b, tuple) else b

    index = []
    for item in spec:
        kind = item[0]
        if kind == "int":
            index.append(item[1])
        elif kind == "dyn":
            index.append(_scalar_index(dynamic[item[1]]))
        elif kind == "slice":
            index.append(slice(*(bound(b) for b in item[1:])))
        elif kind == "newaxis":
            index.append(None)
        elif kind == "ellipsis":
            index.append(Ellipsis)
        else:
            array = dynamic[item[1]]
            infer.require_kind(array.dtype, infer.INTEGER, "index tensors")
            index.append(array)
    return tuple(index)


def _strided_slice_kernel(x, *dynamic, spec):
    return x[build_index(spec, dynamic)]


# --- static shape -----------------------------------------------------------------------

_NO_BYTES = np.dtype([])  # itemsize 0: indexing a dummy of any shape allocates nothing


def _dummy(shape):
    return np.lib.stride_tricks.as_strided(np.zeros((), _NO_BYTES), shape, [0] * len(shape))


def _dims_indexed(spec, rank):
    """For each spec item, the input dim it indexes (None for newaxis and ellipsis)."""
    consumed = sum(item[0] in _CONSUMES_A_DIM for item in spec)
    if consumed > rank:
        raise IndexError(f"too many indices for a tensor of rank {rank}: {consumed} were "
                         "indexed")
    dims, next_dim = [], 0
    for item in spec:
        if item[0] == "ellipsis":
            next_dim += rank - consumed
        dims.append(next_dim if item[0] in _CONSUMES_A_DIM else None)
        next_dim += item[0] in _CONSUMES_A_DIM
    return dims


def _strided_slice_infer(x, *dynamic, spec):
    for item in spec:
        refs = [item] if item[0] in ("dyn", "array") else [
            b for b in item[1:] if isinstance(b, tuple)] if item[0] == "slice" else []
        for ref in refs:
            infer.require_kind(dynamic[ref[1]].dtype.np_dtype, infer.INTEGER, "index tensors")
    if x.shape.dims is None:
        return TensorShape(None), x.dtype
    dims = x.shape.dims
    indexed = _dims_indexed(spec, len(dims))
    # Dims whose result size is only known at run time: unknown dims, and dims sliced with
    # tensor bounds. The dummy is indexed with two sentinel sizes for them; result dims
    # that differ between the two runs are unknown.
    varying = {i for i, d in enumerate(dims) if d is None}
    varying |= {d for item, d in zip(spec, indexed)
                if item[0] == "slice" and any(isinstance(b, tuple) for b in item[1:])}
    # A tensor index removes its dim whatever the dim's size; whether it is in range is
    # the run's question (a staged loop over an empty tensor traces `x[i]` it never runs).
    varying |= {d for item, d in zip(spec, indexed) if item[0] == "dyn"}
    shapes = []
    for sentinel in (2, 3):
        index = []
        for item, d in zip(spec, indexed):
            kind = item[0]
            if kind == "int":
                index.append(0 if d in varying else item[1])
            elif kind == "dyn":
                index.append(0)
            elif kind == "slice":
                index.append(slice(None) if d in varying else slice(*item[1:]))
            elif kind == "newaxis":
                index.append(None)
            elif kind == "ellipsis":
                index.append(Ellipsis)
            else:
                spec_k = dynamic[item[1]]
                value = infer.constant_value(spec_k)
                if value is not None and d not in varying:
                    index.append(value)
                elif spec_k.shape.dims is None:
                    return TensorShape(None), x.dtype
                else:
                    index.append(np.zeros([sentinel if n is None else n
                                           for n in spec_k.shape.dims], np.intp))
        shape = [sentinel if i in varying else n for i, n in enumerate(dims)]
        shapes.append(_dummy(shape)[tuple(index)].shape)
    return TensorShape(a if a == b else None for a, b in zip(*shapes)), x.dtype


register(OpDef("StridedSlice", _strided_slice_kernel, _strided_slice_infer))


# --- the user-facing function -----------------------------------------------------------


def _is_tensor_like(value):
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def _index_tensor(value):
    if _is_tensor_like(value):
        tensor = convert_to_tensor(value)
    else:
        array = np.asarray(value)
        if array.size == 0 and array.dtype.kind == "f":
            array = array.astype(np.int32)  # `x[[]]`: an empty list is an empty int index
        tensor = convert_to_tensor(array if array.dtype.kind in "iub" else value)
    if tensor.dtype.is_bool:
        raise TypeError("boolean mask indexing is not supported; use ag.where(mask) and "
                        "ag.gather")
    if not tensor.dtype.is_integer:
        raise TypeError(f"an index tensor must be of an integer dtype, got {tensor.dtype.name}")
    return tensor


class _SpecBuilder:
    def __init__(self):
        self.spec = []
        self.inputs = []

    def dynamic(self, tensor, kind="dyn"):
        self.inputs.append(tensor)
        return (kind, len(self.inputs) - 1)

    def bound(self, value):
        if value is None:
            return None
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            return int(value)
        if _is_tensor_like(value):
            tensor = _index_tensor(value)
            if tensor.shape.rank == 0:
                return int(tensor) if isinstance(tensor, EagerTensor) else self.dynamic(tensor)
        raise TypeError(f"slice bounds must be ints, None or scalar int tensors, got {value!r}")

    def add(self, item):
        if item is None:
            self.spec.append(("newaxis",))
        elif item is Ellipsis:
            if ("ellipsis",) in self.spec:
                raise IndexError("an index can only have a single ellipsis ('...')")
            self.spec.append(("ellipsis",))
        elif isinstance(item, slice):
            self.spec.append(("slice",) + tuple(self.bound(b) for b in
                                                (item.start, item.stop, item.step)))
        elif isinstance(item, (bool, np.bool_)):
            raise TypeError("a bool cannot be an index; boolean masks are not supported")
        elif isinstance(item, numbers.Integral):
            self.spec.append(("int", int(item)))
        elif _is_tensor_like(item) or isinstance(item, (list, tuple, np.ndarray)):
            tensor = _index_tensor(item)
            if tensor.shape.rank == 0:
                self.spec.append(("int", int(tensor)) if isinstance(tensor, EagerTensor)
                                 else self.dynamic(tensor))
            elif tensor.shape.rank is None:
                raise TypeError(f"an index tensor needs a known rank, got {tensor!r}")
            else:
                self.spec.append(self.dynamic(tensor, "array"))
        else:
            raise TypeError(f"cannot index a tensor with {item!r} (type {type(item).__name__})"
                            "; use ints, slices, None, ..., int tensors or lists of ints")


def strided_slice(x, index, name=None):
    """`x[index]` (see the module docstring)."""
    builder = _SpecBuilder()
    for item in index if isinstance(index, tuple) else (index,):
        builder.add(item)
    return apply("StridedSlice", [convert_to_tensor(x)] + builder.inputs,
                 {"spec": tuple(builder.spec)}, op_name=name)
