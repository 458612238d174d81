"""Overloads of the builtins that meet staged values, for `converted_call` to dispatch to.

Contract: with Python values (and, where the builtin accepts them, eager tensors and
concrete JAX arrays) each overload is exactly the builtin: same result, same errors.
When an argument belongs to a staging backend (backends.py) the backend's overload runs
instead, if it has one (`len`, `range`, `enumerate`, `zip`, `abs`, `int`, `float`, `min`,
`max`, `sum`, `bool`; our graph's: graph_builtins.py, JAX's: runtime/xla/staging).
Which arguments decide: all of them for `range`, `zip`, `min`, `max`; the iterable and
`start` for `enumerate`; the first for the others; `min`/`max` with keywords, and
`bool()` with no argument, are always the builtin. Besides:
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

from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators.backends import backend_for_any
from autograph_py.runtime.operators.trace_warnings import print_


def _dispatching(builtin, deciding=lambda args, kwargs: args[:1]):
    """`builtin`, or the overload of the backend owning one of the deciding arguments."""
    name = builtin.__name__

    def overload(*args, **kwargs):
        backend = backend_for_any(deciding(args, kwargs))
        staged = backend.builtin(name) if backend is not None else None
        return builtin(*args, **kwargs) if staged is None else staged(*args, **kwargs)

    overload.__name__ = overload.__qualname__ = f"{name}_"
    overload.__doc__ = f"`{name}(...)`, staged by the backend of its deciding arguments."
    return overload


def _all_arguments(args, kwargs):
    return args


def _positional_unless_keywords(args, kwargs):
    return () if kwargs else args


def _enumerate_arguments(args, kwargs):
    return (*args[:2], *kwargs.values())


len_ = _dispatching(builtins.len)
range_ = _dispatching(builtins.range, _all_arguments)
enumerate_ = _dispatching(builtins.enumerate, _enumerate_arguments)
zip_ = _dispatching(builtins.zip, _all_arguments)
abs_ = _dispatching(builtins.abs)
int_ = _dispatching(builtins.int)
float_ = _dispatching(builtins.float)
max_ = _dispatching(builtins.max, _positional_unless_keywords)
min_ = _dispatching(builtins.min, _positional_unless_keywords)
sum_ = _dispatching(builtins.sum)
bool_ = _dispatching(builtins.bool)


def isinstance_(obj, classinfo):
    """The builtin, except that a staged stand-in (its class names the Python type it
    stands for as `python_type`: a TensorList is a `list`, a staged range a `range`)
    passes the test its Python counterpart would."""
    if builtins.isinstance(obj, classinfo):
        return True
    python_type = getattr(type(obj), "python_type", None)
    return python_type is not None and builtins.issubclass(python_type, classinfo)


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
