"""What a staged `for` walks by index, for every backend: the protocol, and `range`,
`enumerate`, `zip` written once.

Contract: a `StagedIterable` answers, for a scalar integer `index` counting iterations
from 0 (a tensor of the backend), `has_item(index)` (a bool scalar: is there an item at
`index`) and `item(index)`; `length` is the number of items when the backend knows it
while staging, else None; `finished(count)` tells it how many items the staged loop took
(an iterator resumes there). `staging.for_stmt` turns these into one staged loop.
Iterated in Python (outside converted code) it raises a TypeError saying so.

`Range`, `Enumerate` and `Zip` are completed by a backend's class (mixed in before them)
that gives `staging_backend`, `rows_of(value)` (a value as a staged iterable: itself, or
its rows) and the index arithmetic: `less`, `greater`, `both`, `either` (element-wise
`<`, `>`, and, or) and `plus(index, start)`; a backend's `Range` sets `start`, `stop`,
`step`, `_sign` (the step's sign when a Python int fixes it now, so the loop condition
is one comparison; else None) and `item`.
"""


class StagedIterable:
    staging_backend = "graph"  # backends.py: the backend that stages a loop over it
    length = None  # the number of items, where a backend knows it while staging

    def has_item(self, index):
        raise NotImplementedError

    def item(self, index):
        raise NotImplementedError

    def finished(self, count):
        """The staged loop took `count` items (an integer scalar of the backend)."""

    def __iter__(self):
        raise TypeError(f"{self!r} is symbolic: it can only be iterated by a `for` loop in "
                        "converted code (ag.to_graph / ag.function), which stages the loop")


class Range(StagedIterable):
    """`range(start, stop, step)` with a staged bound; item i is start + i * step."""

    python_type = range

    def has_item(self, index):
        value = self.item(index)
        if self._sign == 1:
            return self.less(value, self.stop)
        if self._sign == -1:
            return self.greater(value, self.stop)
        return self.either(self.both(self.greater(self.step, 0), self.less(value, self.stop)),
                           self.both(self.less(self.step, 0), self.greater(value, self.stop)))

    def __repr__(self):
        return f"range({self.start!r}, {self.stop!r}, {self.step!r})"


class Enumerate(StagedIterable):
    python_type = enumerate

    def __init__(self, iterable, start=0):
        self.iterable, self.start = self.rows_of(iterable), start
        self.length = self.iterable.length

    def has_item(self, index):
        return self.iterable.has_item(index)

    def item(self, index):
        return self.plus(index, self.start), self.iterable.item(index)

    def __repr__(self):
        return f"enumerate({self.iterable!r})"


class Zip(StagedIterable):
    python_type = zip

    def __init__(self, *iterables):
        self.iterables = [self.rows_of(it) for it in iterables]
        lengths = [it.length for it in self.iterables]
        if None not in lengths:
            self.length = min(lengths, default=0)

    def has_item(self, index):
        result = self.iterables[0].has_item(index)
        for it in self.iterables[1:]:
            result = self.both(result, it.has_item(index))
        return result

    def item(self, index):
        return tuple(it.item(index) for it in self.iterables)

    def __repr__(self):
        return f"zip({', '.join(map(repr, self.iterables))})"
