"""List operations for converted code, on Python lists and on staged `TensorList`s.

Contract:
- `new_list(iterable=())`: a Python list of the items; a `TensorList` of the rows of a
  symbolic tensor.
- `list_append(l, x)` returns the list to rebind `l` to: a Python list (or any object
  with `append`) is mutated in place and returned, exactly as `l.append(x)`; a
  `TensorList` is immutable, so a new one is returned.
- `list_pop(l, *index)` (`l.pop(*index)`) returns `(l, item)` the same way; on anything
  but a TensorList or a symbolic tensor it is the object's own `pop` (a dict's, a set's,
  a user class's), called with the arguments as written.
- `list_stack(l)`: the list as one tensor (a Python list of tensors is stacked).
- `set_element_type(l, dtype, shape=None)` (what `ag.set_element_type(l, ...)` becomes
  in converted code): while a graph is built, the Python list `l` becomes a TensorList
  whose elements have that dtype (and shape), so appends in staged code grow it even
  when nothing tells the element type; run eagerly, `l` is returned as is.
- `TensorList` is what a Python list becomes when a staged loop grows or shrinks it:
  its elements are the rows of one tensor of shape `(length, *element_shape)` that
  grows with `concat`. It is used as that tensor wherever a tensor is expected
  (`_as_tensor`), so returning it or computing with it needs no explicit stack.
  `+` with a Python list or another TensorList is list concatenation, as for lists.
"""

from autograph_py.runtime import context, dtypes
from autograph_py.runtime.operators.backends import backend_for_any
from autograph_py.runtime.ops.array_ops import concat, expand_dims, gather, reshape, shape, stack
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.creation_ops import range_, zeros
from autograph_py.runtime.ops.indexing import strided_slice
from autograph_py.runtime.ops.math_ops import add
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor, is_symbolic, to_array
from autograph_py.runtime.tensor_spec import TensorSpec


class TensorList:
    __slots__ = ("stacked",)
    staging_backend = "graph"  # backends.py: our graphs stage what it stands in
    python_type = list         # what it is for `isinstance` (py_builtins.isinstance_)

    def __init__(self, stacked):
        self.stacked = stacked

    @classmethod
    def from_items(cls, items, like):
        """A TensorList of `items`; its elements have the dtype and shape of `like`."""
        if isinstance(like, TensorList):  # an element of that list
            dtype, shape = like.dtype, like.element_shape
        elif isinstance(like, Tensor) or hasattr(like, "dtype") and hasattr(like, "shape"):
            dtype, shape = like.dtype, TensorShape(like.shape)
        else:
            array = to_array(like)
            dtype, shape = dtypes.as_dtype(array.dtype), TensorShape(array.shape)
        if items:
            return cls(stack([_element(x, dtype) for x in items]))
        # Unknown element dims get size 0 here; `append` reshapes the empty list to the
        # first element's real shape.
        return cls(zeros([0] + [d or 0 for d in (shape.dims or ())], dtype))

    @property
    def dtype(self):
        return self.stacked.dtype

    @property
    def element_shape(self):
        return self.stacked.shape[1:]

    def length(self):
        static = self.stacked.shape[0] if self.stacked.shape.rank else None
        return static if static is not None else gather(shape(self.stacked), 0)

    def append(self, x):
        x = _element(x, self.dtype)
        stacked = self.stacked
        if self._rows_may_differ_from(x):
            # An empty list's unknown element dims are placeholder 0s (`from_items`):
            # its rows become the element's shape (0 rows reshape to any row shape).
            # The row count is kept, so rows of another size are an error, never
            # reinterpreted.
            rows = gather(shape(stacked), 0)
            stacked = reshape(stacked, concat([expand_dims(rows, 0), shape(x)], 0))
        return TensorList(concat([stacked, expand_dims(x, 0)], 0))

    def _rows_may_differ_from(self, x):
        known = self.element_shape
        if not (known.is_fully_defined() and known.is_compatible_with(x.shape)):
            return True
        # A 0 dim may be an empty list's placeholder for a dim the element has.
        return 0 in known.dims and list(known.dims) != list(TensorShape(x.shape).dims or ())

    def pop(self, i=-1):
        n = self.length()
        if isinstance(i, int) and i < 0:
            i = add(n, i) if isinstance(n, Tensor) else n + i
        item = gather(self.stacked, i)
        keep = concat([range_(0, i), range_(add(i, 1), n)], 0)
        return TensorList(gather(self.stacked, keep)), item

    def __add__(self, other):
        if not isinstance(other, (list, tuple, TensorList)):
            return NotImplemented
        return self._joined([self.stacked, self._rows(other)])

    def __radd__(self, other):
        if not isinstance(other, (list, tuple)):
            return NotImplemented
        return self._joined([self._rows(other), self.stacked])

    def _rows(self, items):
        """`items` (a TensorList or a list) as rows like this list's elements, or None."""
        if isinstance(items, TensorList):
            return items.stacked
        return TensorList.from_items(list(items), self).stacked if items else None

    def _joined(self, parts):
        parts = [p for p in parts if p is not None]
        return self if len(parts) == 1 else TensorList(concat(parts, 0))

    def __getitem__(self, i):
        return strided_slice(self.stacked, i)  # Python's indexing: -1 is the last item

    def __iter__(self):
        raise TypeError("a TensorList (a Python list grown inside a staged loop) cannot be "
                        "iterated in Python; iterate it in converted code (the loop is "
                        "staged) or stack it with ag.stack")

    def _as_tensor(self):
        return self.stacked

    def _graph_tensor(self, graph):  # lets Session.run fetch a TensorList
        return self.stacked

    def __repr__(self):
        return f"TensorList({self.stacked!r})"


def _element(x, dtype):
    if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
        return convert_to_tensor(x, dtype)
    return convert_to_tensor(to_array(x, dtype))


def new_list(iterable=()):
    if is_symbolic(iterable):
        return TensorList(iterable)
    return list(iterable)


def list_append(target, x):
    if isinstance(target, TensorList):
        return target.append(x)
    if is_symbolic(target):
        return TensorList(target).append(x)
    target.append(x)
    return target


def list_pop(target, *index):
    if isinstance(target, TensorList):
        return target.pop(*index)
    if is_symbolic(target):
        return TensorList(target).pop(*index)
    # Any other object's own `pop`, called exactly as written (a dict's `pop(key)`, a
    # set's `pop()`, a list's `pop(None)` raising Python's TypeError).
    return target, target.pop(*index)


def set_element_type(target, dtype, shape=None):
    if context.current_graph() is None or not isinstance(target, list):
        return target
    return TensorList.from_items(target, TensorSpec(shape, dtype))


def list_stack(target):
    if isinstance(target, TensorList):
        return target.stacked
    if isinstance(target, Tensor):
        return target
    items = list(target)
    backend = backend_for_any(items)
    return (stack if backend is None else backend.stack)(items)
