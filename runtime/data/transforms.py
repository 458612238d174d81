"""Dataset transformations, attached to `Dataset` as TensorFlow's methods: `map`,
`filter`, `batch`, `shuffle`, `repeat`, `take`, `skip`, `enumerate`, `prefetch`.

Contract (each node turns its parent's cursor into its own; runtime/data/cursor.py):
- `map(f)`: element i is `f(parent element i)` (a tuple element spread over f's
  parameters); `f` runs where the element is read, so in a staged loop it is staged.
- `filter(pred)`: the parent's elements where `pred` is true. Reading it first walks the
  whole parent to find them (a `while_loop` in a graph), so a filter over an endless
  dataset is refused and `pred` (and the functions before it) run once more per element.
- `batch(n, drop_remainder=False)`: element i stacks parent elements n*i .. n*i+n-1 (the
  last batch may be short unless dropped); elements of a mapped parent are gathered by a
  `while_loop` writing a TensorArray.
- `shuffle(buffer_size, seed=None)`: TensorFlow's buffered shuffle of the parent's
  indices (one order per reading of the dataset; the same order for the same seed, so
  `repeat()` after it repeats that order).
- `repeat(count=None)`, `take(n)`, `skip(n)`, `enumerate(start=0)` (int64 counters, as
  TensorFlow's), `prefetch(n)` (a no-op: elements are computed when read).
"""

from autograph_py.runtime import dtypes, nest
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.data import (
    calls,
    shuffle,  # noqa: F401  (registers ShuffleIndices)
)
from autograph_py.runtime.data import cursor as c
from autograph_py.runtime.data.dataset import UNKNOWN_CARDINALITY, Dataset
from autograph_py.runtime.ops.array_ops import cast, gather
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.creation_ops import range_
from autograph_py.runtime.ops.math_ops import add, less
from autograph_py.runtime.registry import apply
from autograph_py.runtime.tensor import is_symbolic
from autograph_py.runtime.tensor_array import TensorArray


def loop_items(item, indices):
    """The elements at `indices` stacked, one `item` call per index (in a while_loop)."""
    count = c.rows(indices)
    first = item(gather(indices, 0))
    flat = [convert_to_tensor(t) for t in nest.flatten(first)]
    arrays = [TensorArray(t.dtype, size=count, element_shape=t.shape).write(0, t)
              for t in flat]

    def body(j, arrays):
        element = nest.flatten(item(gather(indices, j)))
        return j + 1, [a.write(j, x) for a, x in zip(arrays, element)]

    _, arrays = while_loop(lambda j, arrays: less(j, count), body, [1, arrays])
    return nest.pack_sequence_as(first, [a.stack() for a in arrays])


class _Transform(Dataset):
    def __init__(self, parent, *options):
        if not isinstance(parent, Dataset):
            raise TypeError(f"expected a dataset, got {parent!r:.60}")
        self._parents, self._opts = (parent,), options

    def _options(self):
        return tuple(o if c.is_known(o) else "tensor" for o in self._opts)


class Map(_Transform):
    def _prepare(self, parents):
        parent, (fn,) = parents[0], self._opts

        def item(i):
            return calls.call(fn, parent.item(i))

        return c.Cursor(parent.length, item, lambda ix: loop_items(item, ix))


class Filter(_Transform):
    def _static_cardinality(self, parents):
        return UNKNOWN_CARDINALITY

    def _prepare(self, parents):
        parent, (predicate,) = parents[0], self._opts
        if parent.length is None:
            raise ValueError("filter() over an endless dataset cannot be read: it finds the "
                             "elements to keep first; take() a part of it before filter()")

        def body(i, count, kept):
            keep = _predicate_value(calls.call(predicate, parent.item(i)))
            kept = cond(keep, lambda: kept.write(count, i), lambda: kept)
            return i + 1, add(count, cast(keep, dtypes.int32)), kept

        empty = TensorArray(dtypes.int32, size=0, dynamic_size=True, element_shape=[])
        _, count, kept = while_loop(lambda i, count, kept: less(i, parent.length), body,
                                    [0, 0, empty])
        indices = kept.stack()
        return c.Cursor(count, lambda i: parent.item(gather(indices, i)),
                        lambda ix: parent.items(gather(indices, ix)))


class Take(_Transform):
    def _static_cardinality(self, parents):
        (n,), parent = self._opts, parents[0]
        if not c.is_known(n) or parent is None:
            return None
        if n < 0:
            return parent
        return n if parent == -1 else min(parent, n)

    def _prepare(self, parents):
        parent, (n,) = parents[0], self._opts
        length = parent.length if c.is_known(n) and n < 0 else c.min_length(parent.length, n)
        return c.Cursor(length, parent.item, parent.items)


class Skip(_Transform):
    def _static_cardinality(self, parents):
        (n,), parent = self._opts, parents[0]
        if not c.is_known(n) or parent is None or parent == -1:
            return None if parent != -1 else -1
        return max(0, parent - n)

    def _prepare(self, parents):
        parent, (n,) = parents[0], self._opts
        length = None if parent.length is None else c.maximum(0, c.sub(parent.length, n))
        return c.Cursor(length, lambda i: parent.item(c.add(i, n)),
                        lambda ix: parent.items(add(ix, c.index_tensor(n))))


class Repeat(_Transform):
    def _static_cardinality(self, parents):
        (count,), parent = self._opts, parents[0]
        if parent == 0:
            return 0
        if count is None or (c.is_known(count) and count < 0):
            return -1
        if parent is None or not c.is_known(count):
            return None
        return -1 if parent == -1 else parent * count

    def _prepare(self, parents):
        parent, (count,) = parents[0], self._opts
        if parent.length is None:
            return parent
        endless = count is None or (c.is_known(count) and count < 0)
        length = None if endless else c.mul(parent.length, count)
        return c.Cursor(length, lambda i: parent.item(c.mod(i, parent.length)),
                        lambda ix: parent.items(c.mod(ix, parent.length)))


class Enumerate(_Transform):
    def _prepare(self, parents):
        parent, (start,) = parents[0], self._opts

        def counter(i):
            return cast(c.add(c.index_tensor(i), start), dtypes.int64)

        return c.Cursor(parent.length, lambda i: (counter(i), parent.item(i)),
                        lambda ix: (counter(ix), parent.items(ix)))


class Shuffle(_Transform):
    def _prepare(self, parents):
        parent, (buffer_size, seed) = parents[0], self._opts
        if parent.length is None:
            raise ValueError("shuffle() over an endless dataset: shuffle before repeat()")
        order = apply("ShuffleIndices", [c.index_tensor(parent.length)],
                      {"buffer_size": int(buffer_size), "seed": seed})
        return c.Cursor(parent.length, lambda i: parent.item(gather(order, i)),
                        lambda ix: parent.items(gather(order, ix)))


class Prefetch(_Transform):
    def _prepare(self, parents):
        return parents[0]


class Batch(_Transform):
    def _static_cardinality(self, parents):
        (size, drop), parent = self._opts, parents[0]
        if parent is None or parent == -1:
            return parent
        return parent // size if drop else -(-parent // size)

    def _prepare(self, parents):
        parent, (size, drop) = parents[0], self._opts
        if parent.length is None:
            length = None
        elif drop:
            length = c.floordiv(parent.length, size)
        else:
            length = c.floordiv(c.add(parent.length, size - 1), size)

        def item(i):
            start = c.mul(c.index_tensor(i), size)
            stop = c.add(start, size)
            if parent.length is not None and not drop:
                stop = c.minimum(stop, parent.length)
            rows = parent.items(range_(start, stop))
            return nest.map_structure(_full_batch, rows) if drop else rows

        def _full_batch(tensor):
            # Without a remainder every batch has `size` rows: say so in the static shape
            # (element_spec, and the loop body's shapes), as TensorFlow does.
            if is_symbolic(tensor) and tensor.shape.rank:
                tensor.set_shape([size, *tensor.shape.dims[1:]])
            return tensor

        return c.Cursor(length, item, lambda ix: loop_items(item, ix))


def _predicate_value(value):
    keep = convert_to_tensor(value)
    if keep.dtype is not dtypes.bool_ or keep.shape.rank not in (0, None):
        raise TypeError(f"filter(): the predicate must return a scalar bool, got {keep!r}")
    return keep


def _check_positive(value, what):
    if not isinstance(value, int) or value <= 0:
        raise ValueError(f"{what} must be a positive int, got {value!r}")
    return value


Dataset.map = lambda self, map_func, num_parallel_calls=None, deterministic=None, name=None: \
    Map(self, map_func)
Dataset.filter = lambda self, predicate, name=None: Filter(self, predicate)
Dataset.take = lambda self, count, name=None: Take(self, count)
Dataset.skip = lambda self, count, name=None: Skip(self, count)
Dataset.repeat = lambda self, count=None, name=None: Repeat(self, count)
Dataset.enumerate = lambda self, start=0, name=None: Enumerate(self, start)
Dataset.shuffle = lambda self, buffer_size, seed=None, reshuffle_each_iteration=None, \
    name=None: Shuffle(self, _check_positive(buffer_size, "shuffle: buffer_size"), seed)
Dataset.prefetch = lambda self, buffer_size=None, name=None: Prefetch(self, buffer_size)
Dataset.batch = lambda self, batch_size, drop_remainder=False, num_parallel_calls=None, \
    deterministic=None, name=None: Batch(self, _check_positive(batch_size, "batch_size"),
                                         bool(drop_remainder))
