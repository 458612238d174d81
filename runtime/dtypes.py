"""Data types of the runtime.

Contract: a `DType` names one numpy dtype. `as_dtype` accepts a DType, a numpy dtype,
a Python/numpy scalar type or a name and returns the canonical DType instance, so
DTypes compare by identity. Python scalars map to int32 / float32 / bool (DESIGN.md §3).
As in TensorFlow, a DType also equals anything `as_dtype` maps to it (`t.dtype ==
np.float32`, `t.dtype == "float32"`), and hashes like its name.
"""

import numpy as _np


class DType:
    """A tensor element type; one instance per type (compare with `is` or `==`)."""

    __slots__ = ("name", "np_dtype")

    def __init__(self, name, np_dtype):
        self.name = name
        self.np_dtype = _np.dtype(np_dtype)

    @property
    def is_floating(self):
        return self.np_dtype.kind == "f"

    @property
    def is_integer(self):
        return self.np_dtype.kind in "iu"

    @property
    def is_bool(self):
        return self.np_dtype.kind == "b"

    @property
    def is_numeric(self):
        return self.np_dtype.kind in "iuf"

    @property
    def as_numpy_dtype(self):
        return self.np_dtype.type

    @property
    def min(self):
        return _np.finfo(self.np_dtype).min if self.is_floating else _np.iinfo(self.np_dtype).min

    @property
    def max(self):
        return _np.finfo(self.np_dtype).max if self.is_floating else _np.iinfo(self.np_dtype).max

    def __repr__(self):
        return f"ag.{self.name}"

    def __str__(self):
        return self.name

    def __reduce__(self):
        return as_dtype, (self.name,)

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return self is as_dtype(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self.name)


float16 = DType("float16", _np.float16)
float32 = DType("float32", _np.float32)
float64 = DType("float64", _np.float64)
int8 = DType("int8", _np.int8)
int16 = DType("int16", _np.int16)
int32 = DType("int32", _np.int32)
int64 = DType("int64", _np.int64)
uint8 = DType("uint8", _np.uint8)
bool_ = DType("bool", _np.bool_)
string = DType("string", _np.object_)

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_, string)
_BY_NAME = {d.name: d for d in ALL}
_BY_NUMPY = {d.np_dtype: d for d in ALL}
_BY_PYTHON_TYPE = {bool: bool_, int: int32, float: float32, str: string}


def as_dtype(value):
    """Return the DType for `value` (DType, numpy dtype or type, Python type, or name)."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        raise TypeError(f"unknown dtype name {value!r}; known: {', '.join(_BY_NAME)}")
    if value in _BY_PYTHON_TYPE:
        return _BY_PYTHON_TYPE[value]
    try:
        np_dtype = _np.dtype(value)
    except TypeError:
        raise TypeError(f"cannot interpret {value!r} as a dtype") from None
    if np_dtype.kind in "SU":
        return string
    if np_dtype not in _BY_NUMPY:
        raise TypeError(f"dtype {np_dtype} is not supported; supported: {', '.join(_BY_NAME)}")
    return _BY_NUMPY[np_dtype]
