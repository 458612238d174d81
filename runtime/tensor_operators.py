"""Python operators of `Tensor` (eager and symbolic), each forwarding to its op.

Contract (TensorFlow 2 semantics):
- `+ - * / // % ** @` and their reflected forms; `/` is true division (ints → floats).
- unary `-`, `+` (the tensor itself), `abs()`.
- `< <= > >=` and `== !=` are elementwise and return bool tensors. Tensors stay hashable
  by identity, so they can be dict keys and set members; `x == None` (or any value that
  is not tensor-like) is False, by Python's identity fallback.
- `& | ^ ~` are logical ops on bool tensors (other dtypes: TypeError).
- `x[index]` is `indexing.strided_slice`.
An operand that cannot become a tensor (an arbitrary object) makes the operator return
NotImplemented, so the other operand's reflected method gets its turn; values that can
but have the wrong dtype raise the op's TypeError. `tensor * "text"` is a TypeError
naming the text (`"text" * int_tensor` repeats the text, as with any integer).
"""

import numbers

import numpy as np
from autograph_py.runtime.ops import math_ops
from autograph_py.runtime.ops.indexing import strided_slice
from autograph_py.runtime.tensor import Tensor


def _tensor_like(value):
    return isinstance(value, (Tensor, numbers.Number, np.ndarray, np.generic, list, tuple)) \
        or hasattr(value, "_as_tensor")


def _forward(fn):
    def operator(self, other):
        return fn(self, other) if _tensor_like(other) else NotImplemented

    return operator


def _multiply(self, other):
    """`tensor * other`. A string or bytes is refused here: returned NotImplemented, it
    would be repeated by the tensor (`str.__rmul__` reads it as an index, and a float
    tensor's message then spoke of indices)."""
    if isinstance(other, (str, bytes)):
        raise TypeError(f"unsupported operand type(s) for *: '{type(self).__name__}' and "
                        f"'{type(other).__name__}' ({other!r:.40}): a tensor does not "
                        "multiply text")
    return math_ops.multiply(self, other) if _tensor_like(other) else NotImplemented


def _reflected(fn):
    def operator(self, other):
        return fn(other, self) if _tensor_like(other) else NotImplemented

    return operator


_BINARY = {
    "add": math_ops.add,
    "sub": math_ops.subtract,
    "mul": math_ops.multiply,
    "truediv": math_ops.divide,
    "floordiv": math_ops.floordiv,
    "mod": math_ops.mod,
    "pow": math_ops.pow_,
    "matmul": math_ops.matmul,
}

_LOGICAL = {"and": ("&", math_ops.logical_and), "or": ("|", math_ops.logical_or),
            "xor": ("^", math_ops.logical_xor)}

# Python reflects comparisons itself (`1 < x` calls `x.__gt__(1)`): no reflected forms.
_COMPARISONS = {
    "lt": math_ops.less,
    "le": math_ops.less_equal,
    "gt": math_ops.greater,
    "ge": math_ops.greater_equal,
    "eq": math_ops.equal,
    "ne": math_ops.not_equal,
}


def _positive(self):
    return self


def _bool_only(symbol, fn):
    """`fn` for a logical operator, refusing non-bool tensors with a hint (ints would
    mean bitwise ops, which the runtime does not have)."""

    def operator(self, *other):
        if not self.dtype.is_bool:
            raise TypeError(f"the operator {symbol} is a logical op on bool tensors; got a "
                            f"{self.dtype.name} tensor of shape {self.shape} (bitwise ops are "
                            "not supported; compare first, or use ag.cast)")
        return operator.fn(self, *other)

    operator.fn = fn
    return operator


def install():
    for name, fn in _BINARY.items():
        setattr(Tensor, f"__{name}__", _forward(fn))
        setattr(Tensor, f"__r{name}__", _reflected(fn))
    Tensor.__mul__ = _multiply
    for name, (symbol, fn) in _LOGICAL.items():
        setattr(Tensor, f"__{name}__", _bool_only(symbol, _forward(fn)))
        setattr(Tensor, f"__r{name}__", _bool_only(symbol, _reflected(fn)))
    for name, fn in _COMPARISONS.items():
        setattr(Tensor, f"__{name}__", _forward(fn))
    Tensor.__neg__ = math_ops.negative
    Tensor.__pos__ = _positive
    Tensor.__abs__ = math_ops.abs_
    Tensor.__invert__ = _bool_only("~", math_ops.logical_not)
    Tensor.__getitem__ = strided_slice
    # Defining __eq__ must not make tensors unhashable (TensorFlow 2 hashes by identity).
    Tensor.__hash__ = object.__hash__


install()
