"""`TensorSpec`: the shape and dtype a tensor must have (dims may be None; shape None =
any rank).

Contract: `TensorSpec.from_value(x)` describes a tensor, numpy array or Variable;
`is_compatible_with(spec_or_value)` says whether a value fits this spec; specs are
hashable and compare by (shape, dtype), so they serve as cache keys.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.shapes import TensorShape


class TensorSpec:
    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_value(cls, value, name=None):
        if isinstance(value, np.ndarray):
            return cls(value.shape, dtypes.as_dtype(value.dtype), name)
        return cls(value.shape, value.dtype, name)

    def is_compatible_with(self, other):
        if not isinstance(other, TensorSpec):
            other = TensorSpec.from_value(other)
        return self.dtype is other.dtype and self.shape.is_compatible_with(other.shape)

    def most_specific_compatible(self, other):
        if self.dtype is not other.dtype:
            raise TypeError(f"{self} and {other} have different dtypes")
        return TensorSpec(self.shape.most_specific_compatible(other.shape), self.dtype)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype is other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype.name))

    def __repr__(self):
        shape = "None" if self.shape.dims is None else repr(self.shape)
        name = f", name={self.name!r}" if self.name else ""
        return f"TensorSpec(shape={shape}, dtype={self.dtype.name}{name})"
