"""A dataset prepared for reading by index: what iteration, staged or not, walks.

Contract: `Cursor(length, item, items)`: `length` is a Python int, an int32 scalar tensor,
or None for an infinite dataset; `item(i)` the element at index `i` (an int or an int32
scalar tensor); `items(indices)` the elements at a vector of indices, stacked (the rows
of a batch). The arithmetic helpers keep Python ints as ints, so a length known while
building stays known (a loop over it, an `iter`/`next` past its end, are decided then).
"""

from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import math_ops
from autograph_py.runtime.ops.array_ops import cast, gather, shape
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import Tensor


class Cursor:
    __slots__ = ("length", "item", "items")

    def __init__(self, length, item, items):
        self.length, self.item, self.items = length, item, items


def is_known(value):
    return not isinstance(value, Tensor)


def index_tensor(value):
    return convert_to_tensor(value, dtypes.int32) if is_known(value) else cast(value,
                                                                               dtypes.int32)


def rows(tensor):
    """The first dimension of `tensor`: an int when known, else an int32 tensor."""
    static = tensor.shape[0]
    return static if static is not None else gather(shape(tensor), 0)


def _arith(py, op):
    def apply(a, b):
        if is_known(a) and is_known(b):
            return py(a, b)
        return op(index_tensor(a), index_tensor(b))
    return apply


add = _arith(lambda a, b: a + b, math_ops.add)
sub = _arith(lambda a, b: a - b, math_ops.subtract)
mul = _arith(lambda a, b: a * b, math_ops.multiply)
floordiv = _arith(lambda a, b: a // b, math_ops.floordiv)
mod = _arith(lambda a, b: a % b, math_ops.mod)
minimum = _arith(min, math_ops.minimum)
maximum = _arith(max, math_ops.maximum)


def min_length(a, b):
    """The shorter of two lengths (None is infinite)."""
    if a is None:
        return b
    if b is None:
        return a
    return minimum(a, b)
