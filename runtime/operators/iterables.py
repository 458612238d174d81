"""Iterables a staged `for` loop walks by index: tensor rows, `range`, `enumerate`, `zip`,
datasets and their iterators.

Contract: `as_staged(value)` returns a `StagedIterable` (staging_iterables.py: the
protocol, and `range`/`enumerate`/`zip` written once for every backend) when iterating
`value` must be staged (a symbolic tensor, a `TensorList`, one of the lazy objects
`py_builtins` returns for `range`/`enumerate`/`zip` over symbolic values, or an `ag.data`
dataset or iterator while a graph is built, as TensorFlow stages `for x in dataset`
inside tf.function), else None. The index is an int32 scalar tensor; `has_item` gives a
bool tensor. A dataset's iterator resumes where `finished(count)` says the loop stopped.
A symbolic integer `ag.range(...)` whose length is known only when the graph runs is
walked as a staged `range` over the Range op's own inputs (TensorFlow's AutoGraph does
the same): the loop counts instead of reading a table of the values, so XLA compiles it
(a loop's trip count may be a run-time value, a tensor's length may not).
Used as a tensor, a staged range is `ag.range(...)`.
"""

from autograph_py.runtime import context
from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators import staging_iterables
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.staging_iterables import StagedIterable
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


class _Graph:
    """Our graphs' half of the shared iterables (staging_iterables.py)."""

    staging_backend = "graph"
    less = staticmethod(less)
    greater = staticmethod(greater)
    both = staticmethod(logical_and)
    either = staticmethod(logical_or)
    plus = staticmethod(add)

    @staticmethod
    def rows_of(value):
        return as_staged(value) or TensorRows(convert_to_tensor(value))


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


class StagedRange(_Graph, staging_iterables.Range):
    """`range(start, stop, step)` with a symbolic bound."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = same_dtype_tensors([start, stop, step], "range")
        if not self.start.dtype.is_integer:
            raise TypeError(f"range() needs integer bounds, got dtype {self.start.dtype.name}")
        self._sign = None if isinstance(step, Tensor) else (step > 0) - (step < 0)
        if self._sign == 0:
            raise ValueError("range() arg 3 must not be zero")
        if self._sign is None:  # as Python's range, a zero step is an error, not no loop
            self.step = require_bound(self.step, not_equal(self.step, 0),
                                      "range() arg 3 must not be zero")
        self._unit_step = not isinstance(step, Tensor) and step == 1

    def item(self, index):
        offset = cast(index, self.start.dtype)
        return add(self.start, offset if self._unit_step else multiply(offset, self.step))

    def _as_tensor(self):
        return range_(self.start, self.stop, self.step)

    @property
    def dtype(self):
        return self.start.dtype


class StagedEnumerate(_Graph, staging_iterables.Enumerate):
    pass


class StagedZip(_Graph, staging_iterables.Zip):
    pass


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
