"""The builtins of converted code on our symbolic values (the graph backend's overloads).

Contract (`OVERLOADS[name]`, called by py_builtins.py when an argument is one of ours):
- `len`: the static first dimension when known, else a `Shape` op (int32 scalar); a
  `TensorList`'s length; a staged range's size.
- `range`, `enumerate`, `zip`: lazy objects (iterables.py) a `for` loop stages; a staged
  range used as a tensor is `ag.range(...)`.
- `abs` → `abs`, `int` → cast to int32 (truncating, like `int`), `float` → cast to float32;
  with more arguments (`int(s, 16)`) the builtin runs.
- `min`/`max` of several values → `minimum`/`maximum`, of one tensor → the reduction over
  its first axis (what iterating it would compare).
- `sum`: a symbolic tensor or `TensorList` sums over its first axis.
- `bool`: Python's truth as a bool tensor (what `if x:` tests, truth.py).
"""

import builtins

from autograph_py.runtime import dtypes
from autograph_py.runtime.operators import overload_factories
from autograph_py.runtime.operators.iterables import (
    StagedEnumerate,
    StagedRange,
    StagedZip,
)
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.ops import math_ops, reduction_ops
from autograph_py.runtime.ops.array_ops import cast, gather, shape, size
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import abs_ as abs_op
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.tensor import Tensor


def _len(value):
    if not isinstance(value, (Tensor, TensorList, StagedRange)):
        return builtins.len(value)  # a lazy enumerate/zip has no length, as in Python
    if isinstance(value, TensorList):
        return value.length()
    if isinstance(value, StagedRange):
        return size(value._as_tensor())
    if value.shape.rank == 0:
        raise TypeError(f"len() of a scalar (0-d) tensor {value!r}")
    static = value.shape[0]
    return static if static is not None else gather(shape(value), 0)


def _range(*args):
    if not 1 <= builtins.len(args) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {builtins.len(args)}")
    start, stop, step = (0, args[0], 1) if builtins.len(args) == 1 else (*args, 1)[:3]
    return StagedRange(start, stop, step)


def _enumerate(iterable, start=0):
    return StagedEnumerate(iterable, start)


def _zip(*iterables, **kwargs):
    if kwargs.get("strict"):
        raise NotImplementedError("zip(strict=True) cannot be staged: the lengths of "
                                  "symbolic tensors are only known when the graph runs")
    return StagedZip(*iterables)


OVERLOADS = {
    "len": _len, "range": _range, "enumerate": _enumerate, "zip": _zip,
    "abs": abs_op,
    "int": overload_factories.cast(builtins.int, lambda x: cast(x, dtypes.int32)),
    "float": overload_factories.cast(builtins.float, lambda x: cast(x, dtypes.float32)),
    "max": overload_factories.extreme(reduction_ops.reduce_max, math_ops.maximum),
    "min": overload_factories.extreme(reduction_ops.reduce_min, math_ops.minimum),
    "sum": overload_factories.first_axis_sum(
        lambda x, axis: reduce_sum(convert_to_tensor(x), axis=axis)),
    "bool": truth,
}
