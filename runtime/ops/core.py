"""Core ops: Const, Placeholder, Identity; and `convert_to_tensor`, the entry of every op.

Contract: `convert_to_tensor(value, dtype=None)` returns a tensor: tensors pass through
(a dtype mismatch is a TypeError), Variables are read, Python and numpy values become
eager tensors, or `Const` ops when a graph is being built. A (nested) list or tuple that
holds tensors is packed (a `Pack` op), its Python numbers taking the tensors' dtype (TF's
auto-packing), so `[t, t]` works in graphs as it does eagerly. `binary_operands` applies the
binary-op dtype rule of DESIGN.md §3; `same_dtype_tensors` converts the items of a list to
tensors of one dtype (packing, `stack` and `concat` use it).
`constant` never shares memory the user can still write to (DESIGN.md §3): it copies an
array unless it is read-only throughout, and stores what it keeps read-only.
"""

import numpy as np
from autograph_py.runtime import context, dtypes
from autograph_py.runtime.graph import make_placeholder
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, Tensor, immutable, read_only, to_array


def _const_kernel(value, dtype):
    return value


def _const_infer(value, dtype):
    return TensorShape(value.shape), dtype


def _placeholder_kernel(dtype, shape):
    raise ValueError("a placeholder must be fed a value")


register(OpDef("Const", _const_kernel, _const_infer))
register(OpDef("Placeholder", _placeholder_kernel, lambda dtype, shape: (shape, dtype)))
register(OpDef("Identity", lambda x: x, lambda x: (x.shape, x.dtype)))


_CONVERTED_TO_NEW_ARRAYS = frozenset({int, float, bool, complex, str, bytes, list, tuple})


def constant(value, dtype=None, shape=None, name=None):
    """A constant tensor (eager) or a `Const` op (graph mode) holding `value`."""
    if isinstance(value, Tensor) and not isinstance(value, EagerTensor):
        raise TypeError(f"constant() needs a concrete value, got the symbolic tensor {value.name}")
    array = to_array(value, dtype)
    # The tensor must not change when the user's array does: a Python value converts to
    # a new array, a tensor's array is immutable already, anything else may be shared.
    if not (type(value) in _CONVERTED_TO_NEW_ARRAYS or isinstance(value, np.generic) or
            isinstance(value, EagerTensor) and array is value._value):
        array = immutable(array)
    if shape is not None:
        shape = tuple(shape)
        if array.size == 1 and np.prod(shape, dtype=np.int64) != 1:
            array = np.full(shape, array.reshape(()), dtype=array.dtype)
        else:
            try:
                array = array.reshape(shape)
            except ValueError:
                raise ValueError(f"constant: cannot reshape a value with {array.size} elements "
                                 f"to shape {shape}") from None
    graph = context.current_graph()
    if graph is None:
        return EagerTensor(array)
    # Read-only: `Session.run` hands the value of a Const out as it is. (An eager tensor's
    # array may stay writable: `numpy()` gives read-only views of it.)
    return apply("Const", [], {"value": read_only(array), "dtype": dtypes.as_dtype(array.dtype)},
                 op_name=name)


def placeholder(dtype, shape=None, name=None):
    """A graph input that `Session.run` must feed. Only valid while building a graph."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError("placeholder() needs a graph: use it inside "
                           "`with ag.Graph().as_default():`")
    return make_placeholder(graph, dtypes.as_dtype(dtype), shape, name or "Placeholder")


def convert_to_tensor(value, dtype=None, name=None):
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtypes.as_dtype(dtype):
            raise TypeError(f"expected a {dtypes.as_dtype(dtype).name} tensor, got "
                            f"{value.dtype.name} ({value!r})")
        return value
    read = getattr(value, "_as_tensor", None)
    if read is not None:  # Variables
        return convert_to_tensor(read(), dtype)
    if holds_tensor(value):  # what `array_ops.stack(value)` does, which builds on this module
        packed = apply("Pack", same_dtype_tensors(value, "stack"), {"axis": 0}, op_name=name)
        return convert_to_tensor(packed, dtype)
    return constant(value, dtype, name=name)


def is_tensor_like(value):
    """A tensor, or a value that reads as one (a Variable, a TensorList)."""
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def holds_tensor(value):
    """A list or tuple with a tensor among its (nested) items: it converts by packing."""
    return isinstance(value, (list, tuple)) and any(
        is_tensor_like(v) or holds_tensor(v) for v in value)


def same_dtype_tensors(values, op):
    """Convert a list of values to tensors of one dtype: the tensors' dtype (they must
    agree); Python values adapt to it losslessly. An item that is a list holding tensors
    counts as a tensor (it is packed)."""
    values = [convert_to_tensor(v) if is_tensor_like(v) or holds_tensor(v) else v
              for v in values]
    if not values:
        raise ValueError(f"{op} needs at least one tensor")
    first = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = None if first is None else first.dtype
    tensors = []
    for v in values:
        t = v if isinstance(v, Tensor) else convert_to_tensor(
            v if dtype is None else lossless_constant(v, dtype, op))
        if dtype is None:
            dtype = t.dtype
        if t.dtype is not dtype:
            raise TypeError(f"{op}: all tensors must have the same dtype, got "
                            + ", ".join(f"{u.dtype.name} (shape {u.shape})"
                                        for u in tensors + [t]))
        tensors.append(t)
    return tensors


def identity(x, name=None):
    return apply("Identity", [convert_to_tensor(x)], op_name=name)


# The identity through which no gradient flows: `StopGradient` has no gradient rule, so
# tapes do not even record it.
register(OpDef("StopGradient", lambda x: x, lambda x: (x.shape, x.dtype)))


def stop_gradient(x, name=None):
    """`x`, with no gradient flowing back through it (like `tf.stop_gradient`)."""
    return apply("StopGradient", [convert_to_tensor(x)], op_name=name)


def _is_scalar_like(value):
    return isinstance(value, (int, float, bool, np.generic)) or (
        isinstance(value, (list, tuple)) and not holds_tensor(value))


def binary_operands(x, y, op_name):
    """Convert both operands of a binary op following the dtype rule (DESIGN.md §3)."""
    x_tensor = isinstance(x, Tensor) or hasattr(x, "_as_tensor")
    y_tensor = isinstance(y, Tensor) or hasattr(y, "_as_tensor")
    if x_tensor and not y_tensor and _is_scalar_like(y):
        x = convert_to_tensor(x)
        return x, lossless_constant(y, x.dtype, op_name)
    if y_tensor and not x_tensor and _is_scalar_like(x):
        y = convert_to_tensor(y)
        return lossless_constant(x, y.dtype, op_name), y
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.dtype is not y.dtype:
        raise TypeError(
            f"{op_name}: both operands must have the same dtype, got {x.dtype.name} "
            f"(shape {x.shape}) and {y.dtype.name} (shape {y.shape}); convert one with ag.cast")
    return x, y


def lossless_constant(value, dtype, op_name):
    """`constant(value, dtype)`, a TypeError naming `op_name` when `dtype` cannot hold
    `value` exactly. (Converting the value once: an array made here from a Python value
    is not copied again as a user's array would be.)"""
    try:
        return constant(value, dtype)
    except TypeError as e:
        raise TypeError(f"{op_name}: {e}") from None
