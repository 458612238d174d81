"""Builders of registry rows for elementwise ops, and their user-facing functions.

Contract: `unary(...)` / `binary(...)` register one row and return the user function.
The row's kernel and infer rule share one dtype check (`kinds`) and one result-dtype rule
(`result`), so eager and graph mode accept the same inputs and give the same dtype:
the kernel casts numpy's result when numpy's promotion differs from the rule (e.g. int
true division). Binary functions convert operands with `binary_operands` (DESIGN.md §3:
equal dtypes, Python scalars take the tensor's dtype when lossless) and broadcast.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.errstate import IGNORE_ALL as _IGNORE_ALL
from autograph_py.runtime.errstate import reset_errstate as _reset_errstate
from autograph_py.runtime.errstate import set_errstate as _set_errstate
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import binary_operands, convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.tensor import EagerTensor

_BOOL = np.dtype(np.bool_)


def same(np_dtype):
    return np_dtype


def boolean(np_dtype):
    return _BOOL


def true_division(np_dtype):
    """TensorFlow's truediv: small ints → float32, int32/int64 → float64, floats stay."""
    if np_dtype.kind in "iu":
        return np.dtype(np.float32 if np_dtype.itemsize <= 2 else np.float64)
    return np_dtype


# TensorFlow returns inf/nan silently where numpy would warn, so kernels on floats compute
# with all floating-point warnings ignored (np.errstate's effect, without its ~1 µs per
# call). Only floats warn, so integer and bool ops skip it.


def _quiet(fn):
    """`fn` with floating-point warnings ignored."""

    def quiet(*arrays):
        token = _set_errstate(_IGNORE_ALL)
        try:
            return fn(*arrays)
        finally:
            _reset_errstate(token)

    quiet.__wrapped__ = fn  # a compiled plan already ignoring warnings calls `fn` itself
    return quiet


def _kernel(fn, kinds, result, cast_inputs, arity):
    # The result has the inputs' dtype for most ops: those get kernels of their arity,
    # the hottest code of eager execution (benchmarks/function_overhead.py).
    if result is same and not cast_inputs and arity == 2:
        def kernel(x, y):
            want = x.dtype
            kind = want.kind
            if kind not in kinds or y.dtype.kind not in kinds:
                infer.require_kind(want, kinds)
                infer.require_kind(y.dtype, kinds)
            if kind == "f":
                token = _set_errstate(_IGNORE_ALL)
                try:
                    out = fn(x, y)
                finally:
                    _reset_errstate(token)
            else:
                out = fn(x, y)
            got = out.dtype
            return out if got is want or got == want else out.astype(want)
    elif result is same and not cast_inputs and arity == 1:
        def kernel(x):
            want = x.dtype
            kind = want.kind
            if kind not in kinds:
                infer.require_kind(want, kinds)
            if kind == "f":
                token = _set_errstate(_IGNORE_ALL)
                try:
                    out = fn(x)
                finally:
                    _reset_errstate(token)
            else:
                out = fn(x)
            got = out.dtype
            return out if got is want or got == want else out.astype(want)
    else:
        def kernel(*arrays):
            for a in arrays:
                if a.dtype.kind not in kinds:
                    infer.require_kind(a.dtype, kinds)
            want = result(arrays[0].dtype)
            if cast_inputs and arrays[0].dtype != want:
                arrays = [a.astype(want) for a in arrays]
            if want.kind == "f" or arrays[0].dtype.kind == "f":
                token = _set_errstate(_IGNORE_ALL)
                try:
                    out = fn(*arrays)
                finally:
                    _reset_errstate(token)
            else:
                out = fn(*arrays)
            return out if out.dtype == want else out.astype(want)

    exact = isinstance(fn, np.ufunc) or getattr(fn, "keeps_dtype", False)
    quiet = _quiet(fn)

    def specialize(*np_dtypes):
        """The kernel for inputs known (statically, in a compiled plan) to have these
        dtypes: `fn` itself, or `fn` under ignored float warnings, when that gives the
        same result as `kernel`; else None (keep `kernel`)."""
        first = np_dtypes[0]
        if not exact or first.kind not in "biuf" or first.kind not in kinds or \
                any(d != first for d in np_dtypes) or result(first) != first and \
                result is not boolean:
            return None
        return quiet if first.kind == "f" else fn

    kernel.specialize = specialize
    return kernel


def _infer(kinds, result):
    def rule(*specs):
        infer.require_specs(kinds, *specs)
        dtype = infer.same_dtype(*specs)
        shape = infer.broadcast_all(*(s.shape for s in specs))
        return shape, dtypes.as_dtype(result(dtype.np_dtype))

    return rule


def _register(op, fn, kinds, result, cast_inputs, arity):
    register(OpDef(op, _kernel(fn, kinds, result, cast_inputs, arity), _infer(kinds, result),
                   elementwise=True))


def _named(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def unary(op, name, fn, kinds, doc, result=same):
    """Register `op` (y = fn(x), elementwise) and return the user function `name(x)`."""
    _register(op, fn, kinds, result, cast_inputs=False, arity=1)

    def user_fn(x, name=None):
        return apply(op, [convert_to_tensor(x)], op_name=name)

    return _named(user_fn, name, doc)


def binary(op, name, fn, kinds, doc, result=same, cast_inputs=False):
    """Register `op` (z = fn(x, y), broadcasting) and return the user function `name(x, y)`.

    `cast_inputs`: cast both operands to the result dtype before `fn` (truediv on ints
    divides in floating point, as TensorFlow does).
    """
    _register(op, fn, kinds, result, cast_inputs, arity=2)

    def user_fn(x, y, name=None):
        if type(x) is not EagerTensor or type(y) is not EagerTensor or x._dtype is not y._dtype:
            x, y = binary_operands(x, y, user_fn.__name__)  # (two such tensors pass as is)
        return apply(op, [x, y], op_name=name)

    return _named(user_fn, name, doc)


def integer_division(fn):
    """`fn` for floordiv/mod, raising ZeroDivisionError on an integer zero divisor (numpy
    would warn and return 0, TensorFlow raises)."""

    def divide(x, y):
        if y.dtype.kind in "iu" and (not y if y.ndim == 0 else not y.all()):
            raise ZeroDivisionError("integer division by zero")
        return fn(x, y)

    divide.keeps_dtype = True  # as `fn`, a ufunc
    return divide
