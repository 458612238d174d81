"""What a JAX-staged `for` loop walks by index: rows of an array, `range`, `enumerate`, `zip`.

Contract: each is a `StagedIterable` (runtime/operators/staging_iterables.py, where
`range`/`enumerate`/`zip` are written once; iterated outside converted code it raises
the same TypeError) owned by the JAX backend. The index is an int32 scalar; `length` is
the number of items when it is static (an array's first dimension), else None (a
`range` with a traced bound).
`as_iterable(value)` wraps a tracer (or any array-like) as its rows; `stacked(items)`
makes the rest of a Python loop one staged iterable.
"""

import builtins
import operator

import jax.numpy as jnp
from autograph_py.runtime.operators import staging_iterables
from autograph_py.runtime.operators.staging_iterables import StagedIterable
from jax import lax


class JaxIterable(StagedIterable):
    """JAX's half of the shared iterables (nothing to resume: JAX values are not
    iterators)."""

    staging_backend = "jax"
    less = staticmethod(operator.lt)
    greater = staticmethod(operator.gt)
    both = staticmethod(operator.and_)
    either = staticmethod(operator.or_)

    @staticmethod
    def rows_of(value):
        return as_iterable(value)

    @staticmethod
    def plus(index, start):
        return start + index


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


class Range(JaxIterable, staging_iterables.Range):
    """`range(start, stop, step)` with a traced bound."""

    def __init__(self, *args):
        if not 1 <= builtins.len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {builtins.len(args)}")
        start, stop, step = (0, args[0], 1) if builtins.len(args) == 1 else (*args, 1)[:3]
        for bound in (start, stop, step):
            if not jnp.issubdtype(jnp.asarray(bound).dtype, jnp.integer):
                raise TypeError(f"range() needs integer bounds, got {bound!r}")
        self.start, self.stop, self.step = start, stop, step
        self._sign = None if not isinstance(step, int) else (step > 0) - (step < 0)
        if self._sign == 0:
            raise ValueError("range() arg 3 must not be zero")
        if all(isinstance(bound, int) for bound in (start, stop, step)):
            self.length = len(range(start, stop, step))

    def item(self, index):
        return self.start + index * self.step

    def size(self):
        """`len(range(...))`: the number of items, as Python computes it."""
        span = jnp.where(jnp.asarray(self.step) > 0, self.stop - self.start,
                         self.start - self.stop)
        return jnp.maximum(0, (span + jnp.abs(self.step) - 1) // jnp.abs(self.step))


class Enumerate(JaxIterable, staging_iterables.Enumerate):
    pass


class Zip(JaxIterable, staging_iterables.Zip):
    def __init__(self, *iterables, strict=False):
        super().__init__(*iterables)
        lengths = [it.length for it in self.iterables]
        if strict and None in lengths:
            raise NotImplementedError("zip(strict=True) over a traced range cannot be "
                                      "staged: its length is only known when it runs")
        if strict and len(set(lengths)) > 1:
            raise ValueError(f"zip() arguments have different lengths {lengths}")


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
