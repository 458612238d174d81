"""Shape arguments (of reshape, fill, zeros, random ops): static when possible, else a tensor.

Contract: `split(shape, op)` returns `(static, inputs)`: a tuple of ints in `static` and no
inputs when the shape is known now (Python ints, a fully defined TensorShape, an eager
tensor), else `static=None` and one 1-D int32 tensor input (a symbolic tensor, or a list
mixing ints and symbolic scalars, which is stacked). Kernels get the shape back with
`resolve(static, inputs)`; infer rules with `infer_target(static, specs)`, which gives
the statically known dims (None where unknown). A dimension that is not an integer (a
float, a float tensor) is a TypeError naming it, never truncated.
Static shapes stay in attrs so graphs print them and need no extra Const ops.
"""

import numbers

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import apply
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor, Tensor


def _static_dim(d, index, op):
    """The int `d` stands for, or None for a symbolic scalar; anything that is not an
    integer (a float such as 2.5, which `int` would truncate) is refused."""
    if isinstance(d, Tensor):
        if not d.dtype.is_integer:
            raise TypeError(f"{op}: shape dimension {index} must be an integer, got a "
                            f"{d.dtype.name} tensor")
        return int(d) if isinstance(d, EagerTensor) else None
    if isinstance(d, numbers.Integral):
        return int(d)
    raise TypeError(f"{op}: shape dimension {index} must be an integer, got {d!r}")


def split(shape, op):
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(f"{op}: shape {shape} must be fully defined")
        return tuple(shape.dims), []
    if isinstance(shape, EagerTensor) or isinstance(shape, np.ndarray):
        array = np.asarray(shape)
        if array.dtype.kind not in "iu" or array.ndim > 1:
            raise TypeError(f"{op}: a shape must be a 1-D integer tensor, got dtype "
                            f"{array.dtype} and shape {array.shape}")
        return tuple(int(d) for d in array.reshape(-1)), []
    if isinstance(shape, SymbolicTensor):
        if not shape.dtype.is_integer:
            raise TypeError(f"{op}: a shape must be an integer tensor, got {shape.dtype.name}")
        return None, [shape]
    if isinstance(shape, numbers.Integral):
        return (int(shape),), []
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"{op}: expected a shape (list of ints or 1-D int tensor), got "
                        f"{shape!r}")
    dims = [_static_dim(d, i, op) for i, d in enumerate(shape)]
    if all(d is not None for d in dims):
        return tuple(dims), []
    parts = [convert_to_tensor(d if isinstance(d, Tensor) else int(d), dtypes.int32)
             for d in shape]
    # The parts are int32 scalars already: the Pack row applies as is (`array_ops.stack`
    # builds on this module, so it cannot be called from here).
    return None, [apply("Pack", parts, {"axis": 0})]


def resolve(static, arrays):
    """The shape as a tuple of ints, in a kernel."""
    if static is not None:
        return static
    return tuple(arrays[0].tolist())  # (Python ints, in one call)


def infer_target(static, specs):
    """The shape's known entries in an infer rule: a tuple of ints (-1 kept for reshape)
    and None for unknown entries, or None when even the rank is unknown."""
    if static is not None:
        return static
    return infer.constant_dims(specs[0])
