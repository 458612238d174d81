"""`TensorArray`: TensorFlow's array of same-typed tensors, with value semantics.

Contract:
- `TensorArray(dtype, size=0, dynamic_size=False, clear_after_read=True,
  element_shape=None, infer_shape=True)`; `write`, `scatter`, `unstack`, `split` return a
  new array (`ta = ta.write(i, x)`), the old one is unchanged. `read`, `gather`, `stack`,
  `concat`, `size` give tensors; `identity` gives an equal array.
- Its value is two tensors (runtime/ops/tensor_array_ops.py), so it is a composite of
  `nest`: it is carried through `cond`, `while_loop`, staged statements, and returned
  from functions like a tuple of tensors, keeping its dtype and options.
- All arrays made from one constructor call share one record of the element shape
  (as TensorFlow's do): the first write fixes it (`infer_shape=True`), later writes
  must match, and an array that comes out of a loop knows the shape its body wrote.
- Errors: a dtype other than the array's (TypeError) and a shape other than its
  elements' (ValueError) at the write; an index past `size` without `dynamic_size`,
  reading an index never written, and stacking an array with nothing written and no
  known element shape, when the op runs (naming the user's line in a graph).
- `clear_after_read` is accepted and has no effect: a read never clears, as in TF 2's
  `tf.function` (reads may repeat). Elements all have one shape: `split` needs equal
  lengths and `concat` joins equal-shaped elements.
"""

from autograph_py.runtime import dtypes
from autograph_py.runtime.ops.array_ops import concat as concat_op
from autograph_py.runtime.ops.array_ops import expand_dims, gather, reshape, shape
from autograph_py.runtime.ops.core import convert_to_tensor, identity
from autograph_py.runtime.ops.creation_ops import range_, zeros
from autograph_py.runtime.registry import apply
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor, to_array


class _ElementShape:
    """The element shape the arrays of one constructor call have learnt (shared)."""

    __slots__ = ("shape", "infer")

    def __init__(self, shape, infer):
        self.shape, self.infer = shape, infer

    def learn(self, element, index):
        if not self.shape.is_compatible_with(element):
            raise ValueError(f"TensorArray.write at index {index}: the element has shape "
                             f"{element} but the array's elements have shape {self.shape}")
        if self.infer:
            self.shape = _merge(self.shape, element)


def _merge(a, b):
    if a.rank is None:
        return TensorShape(b)
    if b.rank is None:
        return a
    return TensorShape(x if x is not None else y for x, y in zip(a.dims, b.dims))


class TensorArray:
    def __init__(self, dtype, size=0, dynamic_size=False, clear_after_read=True,
                 element_shape=None, infer_shape=True, name=None):
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = clear_after_read
        declared = TensorShape(element_shape)
        self._shape = _ElementShape(declared, infer_shape)
        rows = [0, *declared.dims] if declared.is_fully_defined() else [0]
        self._buffer = zeros(rows, self._dtype)
        self._written = zeros(expand_dims(convert_to_tensor(size, dtypes.int32), 0)
                              if isinstance(size, Tensor) else [size], dtypes.bool_)

    # --- composite protocol (runtime/nest.py) ------------------------------------------

    def _nest_components(self):
        return self._buffer, self._written

    def _nest_rebuild(self, components):
        new = object.__new__(TensorArray)
        new._dtype, new._dynamic_size = self._dtype, self._dynamic_size
        new._clear_after_read, new._shape = self._clear_after_read, self._shape
        new._buffer, new._written = components
        return new

    def _trace_signature(self):
        return (self._dtype, self._dynamic_size, self._shape.shape)

    # --- properties ---------------------------------------------------------------------

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def element_shape(self):
        return self._shape.shape

    def size(self, name=None):
        static = self._written.shape[0]
        if static is not None:
            return convert_to_tensor(static, dtypes.int32)
        return gather(shape(self._written), 0)

    # --- writing ------------------------------------------------------------------------

    def write(self, index, value, name=None):
        value = self._element(value, index)
        return self._scatter(expand_dims(convert_to_tensor(index, dtypes.int32), 0),
                             expand_dims(value, 0))

    def scatter(self, indices, value, name=None):
        value = self._element(value, None)
        if value.shape.rank == 0:
            raise ValueError("TensorArray.scatter: the value must have a first axis (one row "
                             "per index), got a scalar")
        self._shape.learn(value.shape[1:], indices)
        return self._scatter(convert_to_tensor(indices, dtypes.int32), value)

    def unstack(self, value, name=None):
        value = self._element(value, None)
        if value.shape.rank == 0:
            raise ValueError("TensorArray.unstack: the value must have a first axis, got a "
                             "scalar")
        self._shape.learn(value.shape[1:], "0..")
        rows = value.shape[0]
        indices = range_(0, rows if rows is not None else gather(shape(value), 0))
        return self._scatter(indices, value)

    def split(self, value, lengths, name=None):
        value = self._element(value, None)
        lengths = [int(n) for n in to_array(lengths).reshape(-1)]
        if len(set(lengths)) > 1:
            raise ValueError(f"TensorArray.split: lengths {lengths} differ; the elements of "
                             "an ag.TensorArray all have one shape, so split needs equal "
                             "lengths")
        if not lengths:
            return self.identity()
        rows = concat_op([[len(lengths), lengths[0]], shape(value)[1:]], 0)
        return self.unstack(reshape(value, rows))

    def _element(self, value, index):
        if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
            value = convert_to_tensor(value)
            if value.dtype is not self._dtype:
                where = "" if index is None else f" at index {index}"
                raise TypeError(f"TensorArray of dtype {self._dtype.name} cannot hold an "
                                f"element of dtype {value.dtype.name}{where}; cast it with "
                                "ag.cast")
        else:
            value = convert_to_tensor(value, self._dtype)
        if index is not None:
            self._shape.learn(value.shape, index)
        return value

    def _scatter(self, indices, values):
        declared = self._shape.shape
        buffer, written = apply("TensorArrayScatter",
                                [self._buffer, self._written, indices, values],
                                {"dynamic_size": self._dynamic_size,
                                 "element_shape": declared.dims})
        return self._nest_rebuild((buffer, written))

    # --- reading ------------------------------------------------------------------------

    def read(self, index, name=None):
        return self.gather(index)

    def gather(self, indices, name=None):
        checked = apply("TensorArrayCheckRead",
                        [self._written, convert_to_tensor(indices, dtypes.int32)])
        return gather(self._buffer, checked)

    def stack(self, name=None):
        return apply("TensorArrayStack", [self._buffer, self._written],
                     {"element_shape": self._shape.shape.dims})

    def concat(self, name=None):
        stacked = self.stack()
        return reshape(stacked, concat_op([[-1], shape(stacked)[2:]], 0))

    def identity(self):
        return self._nest_rebuild((identity(self._buffer), identity(self._written)))

    def close(self, name=None):
        """Nothing to release (TensorFlow's API)."""

    def __repr__(self):
        # A gradient with respect to a TensorArray is one rebuilt from its components'
        # gradients: the bool `written` component has none (None).
        known = self._written if self._written is not None else self._buffer
        size = "unknown" if known is None else known.shape[0]
        return (f"TensorArray(dtype={self._dtype.name}, size={size}, "
                f"element_shape={self._shape.shape})")
