"""`Iterator`: what `iter(dataset)` returns, TensorFlow 2's iterator semantics.

Contract: `iter(ds)` in converted code (`explicit=True`) and a Python `for` over a
dataset both make an iterator; it reads a cursor of the dataset prepared when it was made, from a
position that `next` advances. `next(it)` raises StopIteration past the end when that is
known while building (eagerly always; in a graph when the dataset's length is a Python
int and the position has not been set by a staged loop); otherwise reading past the end
fails when the graph runs, naming the user's line. `next(it, default)` in converted code
gives `default` past the end (a `cond` when that is decided at run time; `default` must
then have the element's structure and dtypes). `for x in it` resumes where `next` left
off; a staged loop over it leaves the position where the loop stopped. A Python loop
(unconverted code) over a dataset whose end is unknown while building is a TypeError:
it would never end. `next` inside
a staged loop body or branch is refused (NotImplementedError): the position could not
leave it.
"""

from autograph_py.runtime import context, dtypes
from autograph_py.runtime.control_flow import cond
from autograph_py.runtime.data import cursor as c
from autograph_py.runtime.ops.array_ops import cast
from autograph_py.runtime.ops.math_ops import add, less
from autograph_py.runtime.tensor import EagerTensor


def _value_now(x):
    """`x` as a Python int when it is known now (an int, or an eager tensor), else None."""
    if isinstance(x, EagerTensor):
        return int(x.numpy())
    return x if c.is_known(x) else None


class Iterator:
    def __init__(self, dataset, explicit=False):
        self._cursor = dataset._cursor()
        self._position = 0
        self._graph = context.current_graph()
        self._explicit = explicit

    def _advance_here(self):
        # The position is a Python attribute, not a loop variable or branch output: moved
        # inside a staged body, the move would be lost (and the body would read a stale
        # position), so it is refused rather than silently wrong.
        if context.current_graph() is not self._graph:
            raise NotImplementedError(
                "next() on a dataset iterator inside a staged loop or branch (a `while`/`if` "
                "on a tensor) cannot advance it: iterate it with `for x in it:` instead, "
                "or zip the dataset with what the loop counts")

    def __iter__(self):
        return self

    def _exhausted(self):
        """True or False when known now, None when only the graph's run can tell."""
        if self._cursor.length is None:
            return False
        length, position = _value_now(self._cursor.length), _value_now(self._position)
        if length is None or position is None:
            return None
        return position >= length

    def __next__(self):
        self._advance_here()
        exhausted = self._exhausted()
        if exhausted is None and not self._explicit:
            # A Python `for` (unconverted code) would never stop.
            raise TypeError(
                "a Python loop over a dataset whose length is only known when the graph "
                "runs (a dataset argument of ag.function) would never end; convert the "
                "function (ag.function's autograph=True) so the loop is staged")
        if exhausted:
            raise StopIteration
        element = self._cursor.item(self._position)
        self._position = c.add(self._position, 1)
        return element

    get_next = __next__

    def _next_or_default(self, default):
        self._advance_here()
        exhausted = self._exhausted()
        if exhausted is not None:
            return default if exhausted else next(self)
        has = less(c.index_tensor(self._position), self._cursor.length)
        position = self._position
        element = cond(has, lambda: self._cursor.item(position), lambda: default)
        self._position = add(c.index_tensor(position), cast(has, dtypes.int32))
        return element

    # --- a staged `for` over the iterator (operators/iterables.py) ------------------------

    def _staged_cursor(self):
        return self._cursor, self._position

    def _consumed(self, count):
        self._position = c.add(self._position, count)
