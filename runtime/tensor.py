"""Tensors: `EagerTensor` (a value) and `SymbolicTensor` (an output of a graph operation).

Contract:
- `EagerTensor` wraps a numpy array that nobody mutates: `.numpy()` and `np.asarray(t)`
  give read-only views of it (a write raises numpy's "assignment destination is
  read-only"). `ops.core.constant` copies what the user hands in (`immutable`), variables
  store read-only arrays (`read_only`).
- `SymbolicTensor` is output `index` of an `Operation`; its static `shape` may have
  unknown dims. `bool()` and `iter()` of a symbolic tensor raise a `TypeError` that says
  how to fix the code: convert it with autograph where autograph is off, else (code
  autograph did not convert, or a form it does not stage) the explicit op to use.
- Python operators are attached by `runtime.tensor_operators`, next to the ops they call.
- `to_array(value, dtype)` turns Python values into arrays with the dtype rules of
  DESIGN.md §3 (int → int32, float → float32, bool → bool; numpy keeps its dtype).
"""

import numpy as np
from autograph_py.runtime import context, dtypes
from autograph_py.runtime.shapes import TensorShape


class Tensor:
    """Base class of eager and symbolic tensors."""

    __slots__ = ()
    # numpy must defer to our operators when an ndarray is on the left.
    __array_priority__ = 1000

    @property
    def ndim(self):
        return self.shape.rank

    @property
    def rank(self):
        return self.shape.rank

    def get_shape(self):
        return self.shape

    __hash__ = object.__hash__


class EagerTensor(Tensor):
    __slots__ = ("_value", "_dtype", "_tape_id", "__weakref__")

    def __init__(self, value, dtype=None):
        self._value = value
        self._dtype = dtype if dtype is not None else dtypes.as_dtype(value.dtype)
        self._tape_id = None

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return TensorShape(self._value.shape)

    @property
    def ndim(self):
        return self._value.ndim

    @property
    def device(self):
        return "CPU:0"

    def numpy(self):
        # A view, not the array: a view of a read-only array cannot be made writeable.
        return read_only(self._value.view())

    def __array__(self, dtype=None, copy=None):
        if copy or (dtype is not None and np.dtype(dtype) != self._value.dtype):
            return np.array(self._value, dtype=dtype)  # a new array the caller owns
        return self.numpy()

    def _value_text(self, show):
        # A multi-line value starts on its own line, so its rows stay aligned.
        text = show(self._value) if self._value.ndim else str(self._value)
        return "\n" + text if "\n" in text else text

    def __str__(self):
        return (f"Tensor({self._value_text(np.array2string)}, shape={self.shape}, "
                f"dtype={self._dtype.name})")

    def __repr__(self):  # TensorFlow's form: the value as numpy shows it
        return (f"<Tensor: shape={self.shape}, dtype={self._dtype.name}, "
                f"numpy={self._value_text(repr)}>")

    def _scalar(self, what):
        if self._value.size != 1:
            raise TypeError(
                f"{what}() needs a tensor with one element, got shape {self.shape}")
        return self._value.reshape(()).item()

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __int__(self):
        return int(self._scalar("int"))

    def __float__(self):
        return float(self._scalar("float"))

    def __index__(self):
        if not self._dtype.is_integer:
            raise TypeError(f"only integer tensors can be used as an index, got {self._dtype}")
        return int(self._scalar("index"))

    def __complex__(self):
        return complex(self._scalar("complex"))

    def __format__(self, spec):
        if spec and self._value.ndim == 0:
            return format(self._value.item(), spec)
        return format(str(self), spec)

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("len() of a scalar tensor")
        return self._value.shape[0]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("iteration over a scalar (0-d) tensor")
        for i, row in enumerate(self._value):
            if context.state.tapes and self._dtype.is_floating:
                yield self[i]  # an op, so recording tapes see where the row came from
            else:
                yield EagerTensor(np.asarray(row), self._dtype)

    def __reduce__(self):
        return EagerTensor, (self._value, self._dtype)


def _staging_hint(staged, explicit):
    """The fix for Python control flow on a symbolic tensor: autograph where it is off
    (`staged` says what converting gives), else `explicit`, the op to write by hand."""
    on, why_not = context.autograph_status()
    if not on:
        return (f"Convert the function with ag.to_graph or ag.function(autograph=True) so "
                f"{staged}.")
    if why_not is not None:
        return (f"Autograph is on, but could not convert the function ({why_not}), so it "
                f"runs as written: make it convertible, or {explicit}.")
    return ("Autograph is on, but this code was not converted (a library function, one "
            "marked do_not_convert or autograph=False) or uses the tensor in a form it "
            f"does not stage: {explicit}.")


class SymbolicTensor(Tensor):
    __slots__ = ("op", "value_index", "_shape", "_dtype", "__weakref__")

    def __init__(self, op, value_index, shape, dtype):
        self.op = op
        self.value_index = value_index
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self._dtype = dtype

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def set_shape(self, shape):
        shape = TensorShape(shape)
        if not self._shape.is_compatible_with(shape):
            raise ValueError(
                f"shape {shape} is incompatible with {self.name}'s shape {self._shape}")
        if shape.dims is not None:
            self._shape = shape

    @property
    def graph(self):
        return self.op.graph

    @property
    def name(self):
        return f"{self.op.name}:{self.value_index}"

    def __repr__(self):
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self._dtype.name})'

    __str__ = __repr__

    def __bool__(self):
        raise TypeError(
            f"Using a symbolic tensor ({self.name}) as a Python bool is not allowed: its "
            "value is only known when the graph runs. " + _staging_hint(
                "`if`/`while` on it are staged, or use ag.cond / ag.while_loop",
                "use ag.cond / ag.while_loop (or ag.where) there"))

    def __iter__(self):
        raise TypeError(
            f"Tensor objects are only iterable when eager execution is enabled ({self.name} "
            "is symbolic). " + _staging_hint(
                "a `for` loop over it is staged",
                "index it (t[0]), use ag.unstack for a known length, or loop with "
                "`for row in t` in converted code"))

    def __len__(self):
        raise TypeError(
            f"len() is not defined on the symbolic tensor {self.name}; use ag.shape(x)[0], "
            "or convert the function so len() is staged.")

    def _no_value(self, what):
        raise TypeError(
            f"{what}() of the symbolic tensor {self.name} is not known until the graph "
            "runs; fetch it with Session.run or call the function eagerly.")

    def __int__(self):
        self._no_value("int")

    def __float__(self):
        self._no_value("float")

    def __index__(self):
        self._no_value("index")

    def numpy(self):
        self._no_value("numpy")

    def __array__(self, dtype=None, copy=None):
        self._no_value("numpy array")


def read_only(array):
    """`array`, marked read-only (in place)."""
    array.setflags(write=False)  # half the cost of `array.flags.writeable = False`
    return array


def immutable(array):
    """`array` itself when nothing can write to its memory (it and every array it views
    are read-only, as numpy lets a view be made writeable again only through a writeable
    base), else a read-only copy."""
    base = array
    while isinstance(base, np.ndarray):
        if base.flags.writeable:
            return read_only(array.copy())
        base = base.base
    return array if base is None or isinstance(base, bytes) else read_only(array.copy())


def is_tensor(x):
    return isinstance(x, Tensor)


def is_symbolic(x):
    return isinstance(x, SymbolicTensor)


def _int_array(value):
    array = np.asarray(value)
    limits = np.iinfo(np.int32)
    if array.size and (array.max() > limits.max or array.min() < limits.min):
        return array.astype(np.int64)
    return array.astype(np.int32)


_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def _may_hold_a_huge_int(array):
    """Whether a float or object array numpy made from Python values may come from an
    int beyond int64 (numpy makes floats of `[1, 2**63]`, objects of `[1, 2**64]`)."""
    if array.dtype.kind == "O":
        return True
    # fmax skips NaNs (`[nan, 2**63]`) without warning.
    return array.size > 0 and bool(np.fmax.reduce(np.abs(array), axis=None) >= 2.0 ** 63)


def _refuse_huge_ints(value):
    """Raise for a Python int beyond int64 in `value` (a number or nested lists): numpy
    would wrap it (`2**63` → -2**63) or round it to a float; TensorFlow refuses it."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and not (
                _INT64_MIN <= item <= _INT64_MAX):
            raise ValueError(f"cannot convert {_short(value)} to a tensor: the integer "
                             f"{item} is out of the range of int64 (as in TensorFlow); "
                             f"write it as a float ({float(item)!r}) to get a float tensor")


_TEXT = (str, bytes, np.str_, np.bytes_)


def _leaves(value, path=""):
    """(position, item) of the items of nested lists and tuples, in order."""
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def _refuse_numbers_among_strings(value):
    """Raise for a list mixing strings and numbers, naming the first item whose kind
    differs from the first item's: numpy would make strings of the numbers
    (`[1, 'a']` → `['1', 'a']`); TensorFlow refuses it ("Can't convert Python sequence
    with mixed types to Tensor")."""
    leaves = _leaves(value)
    first_at, first = next(leaves)
    text = isinstance(first, _TEXT)
    for at, item in leaves:
        if isinstance(item, _TEXT) != text:
            raise ValueError(f"cannot convert {_short(value)} to a tensor: it mixes numbers "
                             f"and strings: element {at} is the {type(item).__name__} "
                             f"{item!r}, but element {first_at} is the "
                             f"{type(first).__name__} {first!r} (TensorFlow: \"Can't "
                             "convert Python sequence with mixed types to Tensor\"); convert "
                             "the elements to one kind first")


_INT_LIMITS = {}
_FLOAT_MAX = {np.dtype(t): float(np.finfo(t).max) for t in (np.float16, np.float32)}


def _python_number(value, dtype):
    """Fast path of `to_array` for an int or float that `dtype` holds exactly (or, for
    floats, within precision); None sends every other case to the general checks."""
    np_dtype = dtypes.as_dtype(dtype).np_dtype
    kind = np_dtype.kind
    if kind == "f":
        if abs(value) > _FLOAT_MAX.get(np_dtype, np.inf):
            return None  # would overflow: the general path says so
        return np.asarray(value, np_dtype)
    if kind in "iu" and (type(value) is int or value.is_integer()):
        limits = _INT_LIMITS.get(np_dtype)
        if limits is None:
            info = np.iinfo(np_dtype)
            limits = _INT_LIMITS[np_dtype] = (int(info.min), int(info.max))
        if limits[0] <= value <= limits[1]:
            return np.asarray(int(value), np_dtype)
    return None


def to_array(value, dtype=None):
    """A numpy array for a Python value, numpy value or eager tensor.

    Without `dtype`, Python numbers follow DESIGN.md §3. With `dtype`, the conversion must
    be lossless (2.0 → int32 is fine, 2.5 → int32 is a TypeError).
    """
    if dtype is not None and type(value) in (int, float):
        array = _python_number(value, dtype)
        if array is not None:
            return array
    if isinstance(value, EagerTensor):
        array = value._value
    elif isinstance(value, np.ndarray):
        array = value
    elif isinstance(value, np.generic):
        array = np.asarray(value)
    else:
        array = np.asarray(value)
        kind = array.dtype.kind
        # numpy makes uint64 of ints >= 2**63 (which int64 would wrap: the cast back agrees),
        # floats or objects of lists holding such ints.
        if (kind == "u" or kind in "fO" and type(value) is not float
                and _may_hold_a_huge_int(array)) and (
                dtype is None or dtypes.as_dtype(dtype).is_integer):
            _refuse_huge_ints(value)
        if kind in "US" and isinstance(value, (list, tuple)):
            _refuse_numbers_among_strings(value)  # numpy made strings of the numbers
        if dtype is None:
            if kind == "f":
                array = array.astype(np.float32)
            elif kind in "iu":
                array = _int_array(array)
            elif kind in "US":
                array = array.astype(object)
            elif kind == "O":
                raise TypeError(f"cannot convert {value!r} to a tensor: mixed or unsupported "
                                "element types")
    if dtype is None:
        dtypes.as_dtype(array.dtype)  # rejects unsupported dtypes with a clear message
        return array
    dtype = dtypes.as_dtype(dtype)
    if array.dtype == dtype.np_dtype:
        return array
    return cast_lossless(array, dtype, value)


def cast_lossless(array, dtype, original):
    """Cast `array` to `dtype`, refusing to drop information (e.g. 2.5 → int32)."""
    if dtype is dtypes.string:
        raise TypeError(f"cannot convert {original!r} to a string tensor")
    if array.dtype.kind in "US" or array.dtype == object:
        raise TypeError(f"cannot convert {original!r} to a tensor of dtype {dtype.name}")
    with np.errstate(all="ignore"):
        converted = array.astype(dtype.np_dtype)  # overflow is reported below, not warned
        back = converted.astype(array.dtype)
    same = back == array
    if array.dtype.kind == "f":
        same = same | (np.isnan(array) & np.isnan(back)) if dtype.is_floating else same
    if not np.all(same):
        if dtype.is_floating and array.dtype.kind in "fiu":
            if np.any(np.isinf(converted) & np.isfinite(array)):
                raise TypeError(f"cannot convert {_short(original)} to {dtype.name}: it "
                                "overflows to inf")
            return converted  # float precision loss is accepted, like TensorFlow
        raise TypeError(
            f"cannot convert {_short(original)} (dtype {array.dtype}) to a tensor of dtype "
            f"{dtype.name} without losing information")
    return converted


def _short(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."
