"""`Variable`: mutable state, usable eagerly, in graphs and inside traced functions.

Contract:
- Created eagerly, a Variable holds its value itself (`_value`); every read and write,
  eager or from a running graph, sees that one value (so state persists across calls of
  a traced function).
- Created while building a graph, its value lives in each Session, initialized on first
  use from `initial_value` (no initializer op to run by hand).
- Reads and writes are ops: eagerly they run at once (reads are recorded on gradient
  tapes); in a graph they are stateful `ReadVariable` / `AssignVariable` /
  `AssignAddVariable` / `AssignSubVariable` ops that run in program order in function
  graphs.
- A Variable behaves like a tensor in expressions (operators, `int()`, `.numpy()`, ops).
- Its value is never shared with the user: the initial value and assigned arrays are
  copied in (stored read-only), `numpy()` returns a copy, reads give read-only arrays.
- Every new Variable is first passed to this thread's `context.variable_creation_hooks()`,
  its `name` the one asked for (`function` records or refuses creation with one).
"""

import threading

import numpy as np
from autograph_py.runtime import context, lifting
from autograph_py.runtime.ops.core import constant, convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import EagerTensor, Tensor, immutable, read_only, to_array

_names = {}
_names_lock = threading.Lock()  # Variables may be created in several threads at once
# assign_add / assign_sub read, then write: atomic, or concurrent updates get lost.
_update_lock = threading.RLock()


def _check_value(var, value):
    if not var.shape.is_compatible_with(value.shape):
        raise ValueError(f"cannot assign a value of shape {TensorShape(value.shape)} to "
                         f"variable '{var.name}' of shape {var.shape}")
    return value


def _read_kernel(ctx, var):
    return ctx.read_variable(var)


def _assign_kernel(ctx, value, var):
    # Copied unless read-only throughout: it may be an array the caller still holds (a
    # feed, an argument of a function). A compiled plan's scalar arithmetic gives numpy
    # scalars; a Variable holds an array (np.asarray(variable) relies on it).
    if not isinstance(value, np.ndarray):
        value = read_only(np.asarray(value, dtype=var.dtype.np_dtype))
    value = immutable(_check_value(var, value))
    ctx.write_variable(var, value)
    return value


def _assign_add_kernel(ctx, delta, var):
    with _update_lock:
        value = read_only(np.asarray(ctx.read_variable(var) + delta, dtype=var.dtype.np_dtype))
        ctx.write_variable(var, value)
    return value


def _assign_sub_kernel(ctx, delta, var):
    with _update_lock:
        value = read_only(np.asarray(ctx.read_variable(var) - delta, dtype=var.dtype.np_dtype))
        ctx.write_variable(var, value)
    return value


def _read_infer(var):
    return var.shape, var.dtype


def _assign_infer(value, var):
    if value.dtype is not var.dtype:
        raise TypeError(f"cannot assign a {value.dtype.name} value to variable '{var.name}' "
                        f"of dtype {var.dtype.name}")
    if not var.shape.is_compatible_with(value.shape):
        raise ValueError(f"cannot assign a value of shape {value.shape} to variable "
                         f"'{var.name}' of shape {var.shape}")
    return var.shape, var.dtype


register(OpDef("ReadVariable", _read_kernel, _read_infer, stateful=True, needs_context=True))
register(OpDef("AssignVariable", _assign_kernel, _assign_infer, stateful=True,
               needs_context=True))
register(OpDef("AssignAddVariable", _assign_add_kernel, _assign_infer, stateful=True,
               needs_context=True))
register(OpDef("AssignSubVariable", _assign_sub_kernel, _assign_infer, stateful=True,
               needs_context=True))


def _unique_variable_name(name):
    with _names_lock:
        count = _names.get(name, 0)
        _names[name] = count + 1
    return name if count == 0 else f"{name}_{count}"


class Variable:
    __array_priority__ = 1000

    def __init__(self, initial_value, dtype=None, trainable=True, name=None):
        self.name = name or "Variable"  # the name hooks see: made unique once accepted
        for hook in context.variable_creation_hooks():
            hook(self)
        if callable(initial_value):
            initial_value = initial_value()
        self.name = _unique_variable_name(self.name)
        self.trainable = trainable
        self._graph_reads = {}
        graph = context.current_graph()
        symbolic_init = isinstance(initial_value, Tensor) and not isinstance(
            initial_value, EagerTensor)
        if graph is not None and graph.lift_variables:
            # Inside a traced function state must outlive the trace: make it eagerly, from
            # an initial value computed outside the graph (TensorFlow's init_scope).
            if symbolic_init:
                initial_value = lifting.lift(initial_value, self.name)
                symbolic_init = False
            graph = None
        if graph is None and not symbolic_init:
            self.graph = None
            self._value = read_only(to_array(initial_value, dtype).copy())
            self.initial_value = EagerTensor(self._value)
        else:
            self.graph = graph if graph is not None else initial_value.graph
            with self.graph.as_default():
                self.initial_value = convert_to_tensor(initial_value, dtype)
            self._value = None
            self.graph.variables.append(self)
        self.dtype = self.initial_value.dtype
        self.shape = self.initial_value.shape

    # --- reading ------------------------------------------------------------------------

    def read_value(self):
        return apply("ReadVariable", [], {"var": self})

    value = read_value

    def _as_tensor(self):
        return self.read_value()

    def _graph_tensor(self, graph):
        """A read of this variable in `graph`, made once (for Session.run fetches)."""
        tensor = self._graph_reads.get(id(graph))
        if tensor is None:
            with graph.as_default():
                tensor = self._graph_reads[id(graph)] = self.read_value()
        return tensor

    def numpy(self):
        if self.graph is not None:
            raise TypeError(f"variable '{self.name}' belongs to a graph; fetch it with "
                            "Session.run")
        return self._value.copy()  # a snapshot the caller owns, as tf.Variable.numpy()

    def __array__(self, dtype=None, copy=None):
        value = self.numpy()
        return value if dtype is None else value.astype(dtype, copy=False)

    def __int__(self):
        return int(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __bool__(self):
        return bool(self.read_value())

    def __index__(self):
        return self.read_value().__index__()

    def __format__(self, spec):
        return format(self.read_value(), spec)

    def __len__(self):  # the static first dimension, as tf.Variable's
        if not self.shape.dims:
            raise TypeError(f"len() of scalar variable '{self.name}'")
        return self.shape.dims[0]

    def __repr__(self):
        if self.graph is None:
            return (f"<Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                    f"numpy={self._value!r}>")
        return f"<Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    __hash__ = object.__hash__

    # --- writing ------------------------------------------------------------------------

    def _write(self, op, value, read_value):
        if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
            value = convert_to_tensor(value)
            if value.dtype is not self.dtype:
                raise TypeError(f"cannot assign a {value.dtype.name} value to variable "
                                f"'{self.name}' of dtype {self.dtype.name}; cast it with ag.cast")
        else:
            try:
                value = constant(value, self.dtype)
            except TypeError as e:
                raise TypeError(f"cannot assign {value!r:.60} to variable '{self.name}' of "
                                f"dtype {self.dtype.name}: {e}") from None
        result = apply(op, [value], {"var": self})
        if context.current_graph() is None and self.graph is None:
            return self if not read_value else result
        return result

    def assign(self, value, read_value=True):
        return self._write("AssignVariable", value, read_value)

    def assign_add(self, delta, read_value=True):
        return self._write("AssignAddVariable", delta, read_value)

    def assign_sub(self, delta, read_value=True):
        return self._write("AssignSubVariable", delta, read_value)


def _forward(name):
    def method(self, *args):
        return getattr(self.read_value(), name)(*args)

    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__",
              "__pos__", "__abs__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__",
              "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__invert__",
              "__getitem__"):
    setattr(Variable, _name, _forward(_name))
