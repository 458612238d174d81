"""Integer arguments of ops (pad's paddings, tile's multiples, one_hot's depth, top_k's k,
linspace's num): an attr when the value is known now, else a tensor input.

Contract: `split(value, op, what, ndim)` returns `(static, inputs)`: `static` is the value
as nested tuples of ints (a plain int when `ndim == 0`) and `inputs` is empty, when the
value is Python ints, a numpy array or an eager tensor; else `static=None` and `inputs`
holds the one integer tensor (a symbolic tensor, or a list mixing ints and symbolic
scalars, packed). The value must have `ndim` dimensions. Kernels get the value back as a
numpy array with `resolve(static, arrays)`; infer rules with `known(static, specs)`,
which is None when the value is only known at run time (a `Const` input counts as known).
Static values stay attrs so graphs print them and serialize them as plain tuples.
"""

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor


def _as_static(array):
    return int(array) if array.ndim == 0 else tuple(_as_static(a) for a in array)


def _symbolic_inside(value):
    if isinstance(value, (list, tuple)):
        return any(_symbolic_inside(v) for v in value)
    return isinstance(value, SymbolicTensor) or hasattr(value, "_as_tensor")


def _concrete(value):
    if isinstance(value, (list, tuple)):
        return [_concrete(v) for v in value]
    return value.numpy() if isinstance(value, EagerTensor) else value


def split(value, op, what, ndim):
    if _symbolic_inside(value):
        tensor = convert_to_tensor(value)
        if not tensor.dtype.is_integer or tensor.shape.rank not in (None, ndim):
            raise TypeError(f"{op}: {what} must be a {ndim}-D integer tensor, got "
                            f"{tensor.dtype.name} of shape {tensor.shape}")
        return None, [tensor]
    array = np.asarray(_concrete(value))
    if array.dtype.kind not in "iu" or array.ndim != ndim:
        raise TypeError(f"{op}: {what} must be a {ndim}-D integer value, got dtype "
                        f"{array.dtype} and shape {array.shape}")
    return _as_static(array), []


def resolve(static, arrays):
    """The value as a numpy int64 array, in a kernel."""
    if static is not None:
        return np.asarray(static, dtype=np.int64)
    return np.asarray(arrays[0], dtype=np.int64)


def known(static, specs):
    """The value as a numpy int64 array when known while building the graph, else None."""
    if static is not None:
        return np.asarray(static, dtype=np.int64)
    value = infer.constant_value(specs[0])
    return None if value is None else np.asarray(value, dtype=np.int64)
