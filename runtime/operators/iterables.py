"""Iterables a staged `for` loop walks by index: tensor rows, `range`, `enumerate`, `zip`,
datasets and their iterators.

Contract: `as_staged(value)` returns a `StagedIterable` when iterating `value` must be
staged (a symbolic tensor, a `TensorList`, one of the lazy objects `py_builtins`
returns for `range`/`enumerate`/`zip` over symbolic values, or an `ag.data` dataset or
iterator while a graph is built, as TensorFlow stages `for x in dataset` inside
tf.function), else None. `finished(count)` tells it how many items the staged loop took
(an iterator resumes there). A staged
iterable answers, for an int32 scalar `index` counting iterations from 0,
`has_item(index)` (a bool tensor: is there an item at `index`) and `item(index)`.
`staging.for_stmt` turns these into the condition and the body of one staged loop.
A symbolic integer `ag.range(...)` whose length is known only when the graph runs is
walked as a staged `range` over the Range op's own inputs (TensorFlow's AutoGraph does
the same): the loop counts instead of reading a table of the values, so XLA compiles it
(a loop's trip count may be a run-time value, a tensor's length may not).
Iterated in Python (outside converted code) the lazy objects raise the same TypeError
as a symbolic tensor; used as a tensor, a staged range is `ag.range(...)`.
"""

from autograph_py.runtime import context
from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.ops.array_ops import cast, gather, shape
from autograph_py.runtime.ops.bound_check import require_bound
from autograph_py.runtime.ops.core import convert_to_tensor, same_dtype_tensors
from autograph_py.runtime.ops.creation_ops import range_
from autograph_py.runtime.ops.infer import constant_value
from autograph_py.runtime.ops.math_ops import (
    add,
    greater,
    less,
    logical_and,
    logical_or,
    multiply,
    not_equal,
)
from autograph_py.runtime.tensor import SymbolicTensor, Tensor


class StagedIterable:
    staging_backend = "graph"  # backends.py: the backend that stages a loop over it
    length = None  # the number of items, where a backend knows it while staging

    def has_item(self, index):
        raise NotImplementedError

    def item(self, index):
        raise NotImplementedError

    def finished(self, count):
        """The staged loop took `count` items (an int32 tensor)."""

    def __iter__(self):
        raise TypeError(f"{self!r} is symbolic: it can only be iterated by a `for` loop in "
                        "converted code (ag.to_graph / ag.function), which stages the loop")


class TensorRows(StagedIterable):
    """The rows (first-axis slices) of a tensor, as Python iterates an eager tensor."""

    def __init__(self, tensor):
        if tensor.shape.rank == 0:
            raise TypeError(f"cannot iterate over a scalar (0-d) tensor {tensor!r}")
        self.tensor = tensor

    def has_item(self, index):
        static = self.tensor.shape[0]
        length = static if static is not None else gather(shape(self.tensor), 0)
        return less(index, length)

    def item(self, index):
        return gather(self.tensor, index)

    def __repr__(self):
        return f"TensorRows({self.tensor!r})"


class StagedRange(StagedIterable):
    """`range(start, stop, step)` with a symbolic bound; item i is start + i * step."""

    python_type = range

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = same_dtype_tensors([start, stop, step], "range")
        if not self.start.dtype.is_integer:
            raise TypeError(f"range() needs integer bounds, got dtype {self.start.dtype.name}")
        # A Python step fixes the direction now, so the loop condition is one comparison.
        self._step_sign = None if isinstance(step, Tensor) else (step > 0) - (step < 0)
        if self._step_sign == 0:
            raise ValueError("range() arg 3 must not be zero")
        if self._step_sign is None:  # as Python's range, a zero step is an error, not no loop
            self.step = require_bound(self.step, not_equal(self.step, 0),
                                      "range() arg 3 must not be zero")
        self._unit_step = not isinstance(step, Tensor) and step == 1

    def item(self, index):
        offset = cast(index, self.start.dtype)
        return add(self.start, offset if self._unit_step else multiply(offset, self.step))

    def has_item(self, index):
        value = self.item(index)
        if self._step_sign == 1:
            return less(value, self.stop)
        if self._step_sign == -1:
            return greater(value, self.stop)
        return logical_or(logical_and(greater(self.step, 0), less(value, self.stop)),
                          logical_and(less(self.step, 0), greater(value, self.stop)))

    def _as_tensor(self):
        return range_(self.start, self.stop, self.step)

    @property
    def dtype(self):
        return self.start.dtype

    def __repr__(self):
        return f"range({self.start!r}, {self.stop!r}, {self.step!r})"


class StagedEnumerate(StagedIterable):
    python_type = enumerate

    def __init__(self, iterable, start):
        self.iterable = as_staged(iterable) or TensorRows(convert_to_tensor(iterable))
        self.start = start

    def has_item(self, index):
        return self.iterable.has_item(index)

    def item(self, index):
        return add(index, self.start), self.iterable.item(index)

    def __repr__(self):
        return f"enumerate({self.iterable!r})"


class StagedZip(StagedIterable):
    python_type = zip

    def __init__(self, iterables):
        self.iterables = [as_staged(it) or TensorRows(convert_to_tensor(it))
                          for it in iterables]

    def has_item(self, index):
        result = self.iterables[0].has_item(index)
        for it in self.iterables[1:]:
            result = logical_and(result, it.has_item(index))
        return result

    def item(self, index):
        return tuple(it.item(index) for it in self.iterables)

    def __repr__(self):
        return f"zip({', '.join(map(repr, self.iterables))})"


class StagedDataset(StagedIterable):
    """A dataset's (or an iterator's) elements from its position on: the pipeline is read
    inside the loop, element by element."""

    def __init__(self, source):
        self.source = source
        self.cursor, self.start = source._staged_cursor()

    def has_item(self, index):
        if self.cursor.length is None:
            return convert_to_tensor(True)
        return less(add(index, self.start), self.cursor.length)

    def item(self, index):
        return self.cursor.item(add(index, self.start))

    def finished(self, count):
        self.source._consumed(count)

    def __repr__(self):
        return f"StagedDataset({self.source!r})"


def as_staged(value):
    if isinstance(value, StagedIterable):
        return value
    if isinstance(value, SymbolicTensor):
        return _counted_range(value) or TensorRows(value)
    if isinstance(value, TensorList):
        return TensorRows(value.stacked)
    if isinstance(value, (Dataset, Iterator)) and context.current_graph() is not None:
        return StagedDataset(value)
    return None


def _counted_range(tensor):
    """A StagedRange standing for `tensor` when it is an integer `ag.range` of a length
    unknown while building, else None. A range of static length stays a table read by
    index: its loop is as well known (a static trip count) and its values prove bounds."""
    op = tensor.op
    if op.type != "Range" or tensor.shape[0] is not None or not tensor.dtype.is_integer:
        return None
    start, limit, delta = op.inputs
    step = constant_value(delta)
    return StagedRange(start, limit, delta if step is None else int(step))
