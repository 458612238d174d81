"""What a JAX-staged `for` loop walks by index: rows of an array, `range`, `enumerate`, `zip`.

Contract: each is a `StagedIterable` (runtime/operators/iterables.py; iterated outside
converted code it raises the same TypeError) owned by the JAX backend. For an int32
scalar `index` counting iterations from 0, `has_item(index)` is a bool scalar and
`item(index)` the item; `length` is the number of items when it is static (an array's
first dimension), else None (a `range` with a traced bound).
`as_iterable(value)` wraps a tracer (or any array-like) as its rows; `stacked(items)`
makes the rest of a Python loop one staged iterable.
"""

import builtins

import jax.numpy as jnp
from autograph_py.runtime.operators.iterables import StagedIterable
from jax import lax


class JaxIterable(StagedIterable):
    staging_backend = "jax"
    length = None

    def finished(self, count):
        """Nothing to resume: JAX values are not iterators."""


class Rows(JaxIterable):
    def __init__(self, array):
        self.array = jnp.asarray(array)
        if self.array.ndim == 0:
            raise TypeError(f"cannot iterate over a 0-d array {self.array!r}")
        self.length = self.array.shape[0]

    def has_item(self, index):
        return index < self.length

    def item(self, index):
        return lax.dynamic_index_in_dim(self.array, index, keepdims=False)

    def __repr__(self):
        return f"Rows({self.array!r})"


class Range(JaxIterable):
    """`range(start, stop, step)` with a traced bound; item i is start + i * step."""

    python_type = range

    def __init__(self, *args):
        if not 1 <= builtins.len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {builtins.len(args)}")
        start, stop, step = (0, args[0], 1) if builtins.len(args) == 1 else (*args, 1)[:3]
        for bound in (start, stop, step):
            if not jnp.issubdtype(jnp.asarray(bound).dtype, jnp.integer):
                raise TypeError(f"range() needs integer bounds, got {bound!r}")
        self.start, self.stop, self.step = start, stop, step
        # A Python step fixes the direction now, so the loop condition is one comparison.
        self._sign = None if not isinstance(step, int) else (step > 0) - (step < 0)
        if self._sign == 0:
            raise ValueError("range() arg 3 must not be zero")
        if all(isinstance(bound, int) for bound in (start, stop, step)):
            self.length = len(range(start, stop, step))

    def item(self, index):
        return self.start + index * self.step

    def has_item(self, index):
        value = self.item(index)
        if self._sign is not None:
            return value < self.stop if self._sign > 0 else value > self.stop
        return ((self.step > 0) & (value < self.stop)) | ((self.step < 0) & (value > self.stop))

    def size(self):
        """`len(range(...))`: the number of items, as Python computes it."""
        span = jnp.where(jnp.asarray(self.step) > 0, self.stop - self.start,
                         self.start - self.stop)
        return jnp.maximum(0, (span + jnp.abs(self.step) - 1) // jnp.abs(self.step))

    def __repr__(self):
        return f"range({self.start!r}, {self.stop!r}, {self.step!r})"


class Enumerate(JaxIterable):
    python_type = enumerate

    def __init__(self, iterable, start=0):
        self.iterable, self.start = as_iterable(iterable), start
        self.length = self.iterable.length

    def has_item(self, index):
        return self.iterable.has_item(index)

    def item(self, index):
        return self.start + index, self.iterable.item(index)

    def __repr__(self):
        return f"enumerate({self.iterable!r})"


class Zip(JaxIterable):
    python_type = zip

    def __init__(self, *iterables, strict=False):
        self.iterables = [as_iterable(it) for it in iterables]
        lengths = [it.length for it in self.iterables]
        if None not in lengths:
            if strict and len(set(lengths)) > 1:
                raise ValueError(f"zip() arguments have different lengths {lengths}")
            self.length = min(lengths, default=0)
        elif strict:
            raise NotImplementedError("zip(strict=True) over a traced range cannot be "
                                      "staged: its length is only known when it runs")

    def has_item(self, index):
        result = self.iterables[0].has_item(index)
        for it in self.iterables[1:]:
            result = result & it.has_item(index)
        return result

    def item(self, index):
        return tuple(it.item(index) for it in self.iterables)

    def __repr__(self):
        return f"zip({', '.join(map(repr, self.iterables))})"


def stacked(items):
    """The remaining items of a Python loop whose stop test became traced: a `Range` when
    they are the ints of an arithmetic progression (the rest of a `range`: each item is
    then computed from the loop counter), else the rows of one stacked array."""
    if all(type(item) is int for item in items):
        step = items[1] - items[0] if len(items) > 1 else 1
        if step and items == list(range(items[0], items[-1] + step, step)):
            return Range(items[0], items[-1] + step, step)
    return Rows(jnp.stack([jnp.asarray(item) for item in items]))


def as_iterable(value):
    return value if isinstance(value, JaxIterable) else Rows(value)
