"""Overloads of the builtins that meet tensors, for `converted_call` to dispatch to.

Contract: with Python values (and, where the builtin accepts them, eager tensors) each
overload is exactly the builtin: same result, same errors. With a symbolic argument it
stages instead:
- `len_`: the static first dimension when known, else a `Shape` op (int32 scalar).
- `range_`, `enumerate_`, `zip_`: lazy objects (`iterables.py`) a `for` loop stages; a
  staged range used as a tensor is `ag.range(...)`.
- `abs_` → `abs`, `int_` → cast to int32 (truncating, like `int`), `float_` → cast to
  float32, `min_`/`max_` of several values → `minimum`/`maximum`, of one tensor → the
  reduction over its first axis (what iterating it would compare).
- `sum_`: a symbolic tensor or `TensorList` sums over its first axis.
- `bool_`: Python's truth of a symbolic value or a `TensorList`, as a bool tensor (what
  `if x:` tests, `truth.py`).
- `isinstance_`: the builtin, except that staged stand-ins still pass the test their
  Python counterpart would (a `TensorList` is a `list`, a staged range a `range`, ...).
- `iter_`: the builtin; `iter(dataset)` is an iterator whose `next` may read past an end
  only the graph's run knows (then failing there, as TensorFlow's OutOfRangeError).
- `next_`: the builtin; `next(it, default)` on an `ag.data` iterator whose end is only
  known when the graph runs gives `default` there (runtime/data/iterator.py).
- `print_`: the builtin, warning when it runs while a graph is traced (trace_warnings.py).
`BUILTIN_OVERLOADS` maps each builtin to its overload.
"""

import builtins

from autograph_py.runtime import dtypes
from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators.iterables import (
    StagedEnumerate,
    StagedRange,
    StagedZip,
    is_staged,
)
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.operators.trace_warnings import print_
from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.ops import math_ops, reduction_ops
from autograph_py.runtime.ops.array_ops import cast, gather, shape, size
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import abs_ as abs_op
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.tensor import is_symbolic


def len_(value):
    if isinstance(value, TensorList):
        return value.length()
    if isinstance(value, StagedRange):
        return size(value._as_tensor())
    if not is_symbolic(value):
        return builtins.len(value)
    if value.shape.rank == 0:
        raise TypeError(f"len() of a scalar (0-d) tensor {value!r}")
    static = value.shape[0]
    return static if static is not None else gather(shape(value), 0)


def range_(*args):
    if not builtins.any(is_symbolic(a) for a in args):
        return builtins.range(*args)
    if not 1 <= builtins.len(args) <= 3:
        raise TypeError(f"range expected 1 to 3 arguments, got {builtins.len(args)}")
    start, stop, step = (0, args[0], 1) if builtins.len(args) == 1 else (*args, 1)[:3]
    return StagedRange(start, stop, step)


def enumerate_(iterable, start=0):
    if is_staged(iterable) or is_symbolic(start):
        return StagedEnumerate(iterable, start)
    return builtins.enumerate(iterable, start)


def zip_(*iterables, **kwargs):
    if builtins.any(is_staged(it) for it in iterables):
        if kwargs.get("strict"):
            raise NotImplementedError("zip(strict=True) cannot be staged: the lengths of "
                                      "symbolic tensors are only known when the graph runs")
        return StagedZip(iterables)
    return builtins.zip(*iterables, **kwargs)


def abs_(x):
    return abs_op(x) if is_symbolic(x) else builtins.abs(x)


def _cast_or_builtin(builtin, dtype):
    def overload(x, *args):
        if is_symbolic(x) and not args:
            return cast(x, dtype)
        return builtin(x, *args)

    overload.__name__ = overload.__qualname__ = f"{builtin.__name__}_"
    overload.__doc__ = f"`{builtin.__name__}(x)`; a symbolic `x` is cast to {dtype.name}."
    return overload


int_ = _cast_or_builtin(builtins.int, dtypes.int32)
float_ = _cast_or_builtin(builtins.float, dtypes.float32)


def _extreme(builtin, reduce_name, pairwise_name):
    def overload(*args, **kwargs):
        if kwargs or not builtins.any(is_symbolic(a) for a in args):
            return builtin(*args, **kwargs)
        if builtins.len(args) == 1:
            return getattr(reduction_ops, reduce_name)(args[0], axis=0)
        pairwise = getattr(math_ops, pairwise_name)
        result = args[0]
        for value in args[1:]:
            result = pairwise(result, value)
        return result

    overload.__name__ = overload.__qualname__ = f"{builtin.__name__}_"
    overload.__doc__ = (f"`{builtin.__name__}(...)`; staged as {pairwise_name} / "
                        f"{reduce_name} when an argument is symbolic.")
    return overload


max_ = _extreme(builtins.max, "reduce_max", "maximum")
min_ = _extreme(builtins.min, "reduce_min", "minimum")

# What a staged stand-in is, for `isinstance`, in Python terms.
_PYTHON_TYPES = {TensorList: builtins.list, StagedRange: builtins.range,
                 StagedEnumerate: builtins.enumerate, StagedZip: builtins.zip}


def isinstance_(obj, classinfo):
    if builtins.isinstance(obj, classinfo):
        return True
    python_type = _PYTHON_TYPES.get(type(obj))
    return python_type is not None and builtins.issubclass(python_type, classinfo)


def sum_(iterable, /, start=0):
    """`sum`; a symbolic tensor or a TensorList sums over its first axis."""
    if isinstance(iterable, TensorList) or is_symbolic(iterable):
        total = reduce_sum(convert_to_tensor(iterable), axis=0)
        return total if isinstance(start, int) and start == 0 else total + start
    return builtins.sum(iterable, start)


def bool_(*args):
    if builtins.len(args) == 1 and (is_symbolic(args[0]) or isinstance(args[0], TensorList)):
        return truth(args[0])
    return builtins.bool(*args)


_NO_DEFAULT = object()


def iter_(value, *sentinel):
    if isinstance(value, Dataset) and not sentinel:
        return Iterator(value, explicit=True)
    return builtins.iter(value, *sentinel)


def next_(iterator, default=_NO_DEFAULT, /):
    if default is _NO_DEFAULT:
        return builtins.next(iterator)
    if isinstance(iterator, Iterator):
        return iterator._next_or_default(default)
    return builtins.next(iterator, default)


BUILTIN_OVERLOADS = {
    builtins.len: len_, builtins.range: range_, builtins.enumerate: enumerate_,
    builtins.zip: zip_, builtins.abs: abs_, builtins.int: int_, builtins.float: float_,
    builtins.min: min_, builtins.max: max_, builtins.isinstance: isinstance_,
    builtins.sum: sum_, builtins.bool: bool_, builtins.next: next_,
    builtins.iter: iter_, builtins.print: print_,
}
