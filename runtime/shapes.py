"""Static shapes: `TensorShape` (dims may be None; the rank itself may be unknown).

Contract: `TensorShape(None)` is an unknown rank; otherwise a tuple of `int | None`.
It compares equal to tuples and lists of the same dims, prints like a tuple
(`(2, 2)`, `(None, 3)`, `<unknown>`), and offers the merge rules loops and branches need.
"""


class TensorShape:
    __slots__ = ("dims",)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims.dims
        elif dims is not None:
            if isinstance(dims, int):
                dims = (dims,)
            dims = tuple(None if d is None else _as_dim(d) for d in dims)
        self.dims = dims

    @property
    def rank(self):
        return None if self.dims is None else len(self.dims)

    @property
    def ndims(self):
        return self.rank

    def is_fully_defined(self):
        return self.dims is not None and all(d is not None for d in self.dims)

    def as_list(self):
        if self.dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape")
        return list(self.dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self.dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = TensorShape(other)
        if self.dims is None or other.dims is None:
            return True
        if len(self.dims) != len(other.dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self.dims, other.dims))

    def most_specific_compatible(self, other):
        """The most specific shape both shapes are instances of (dims that differ → None)."""
        other = TensorShape(other)
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return TensorShape(None)
        return TensorShape(a if a == b else None for a, b in zip(self.dims, other.dims))

    def __iter__(self):
        if self.dims is None:
            raise ValueError("cannot iterate over a shape of unknown rank")
        return iter(self.dims)

    def __len__(self):
        if self.dims is None:
            raise ValueError("cannot take the length of a shape of unknown rank")
        return len(self.dims)

    def __getitem__(self, index):
        if self.dims is None:
            return None if isinstance(index, int) else TensorShape(None)
        if isinstance(index, slice):
            return TensorShape(self.dims[index])
        return self.dims[index]

    def __eq__(self, other):
        if isinstance(other, TensorShape):
            return self.dims == other.dims
        if isinstance(other, (tuple, list)):
            return self.dims is not None and self.dims == tuple(other)
        return NotImplemented

    def __hash__(self):
        return hash(self.dims)

    def __repr__(self):
        return "<unknown>" if self.dims is None else repr(self.dims)

    __str__ = __repr__


def _as_dim(d):
    try:
        value = int(d)
    except (TypeError, ValueError):
        raise TypeError(f"a shape dimension must be an int or None, got {d!r}") from None
    if value < 0:
        raise ValueError(f"a shape dimension must be >= 0, got {value}")
    return value
