"""Lowerings of elementwise math, comparisons, reductions, scans, matmul, sort and einsum.

Contract: each row gives the numpy kernel's result (same dtype rules: the kernels' result
dtypes are restated by casting to the op's static output dtype). Where numpy raises at
run time (an integer zero divisor, a negative integer power) the row records a check
(`ctx.check`), raised with the kernel's error type when the call returns.
"""

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime.ops.infer import normalize_axes, normalize_axis
from autograph_py.runtime.ops.math_ops import matmul_shape
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.xla import tie_conventions as conventions
from autograph_py.runtime.xla.lowering import static
from autograph_py.runtime.xla.table import register_lowering
from jax import lax


def out_dtype(op, i=0):
    return op.outputs[i].dtype.np_dtype


def _sigmoid(x):
    return 0.5 * (jnp.tanh(0.5 * x) + 1)  # the numpy kernel's form, same rounding


_UNARY = {
    "Neg": jnp.negative, "Abs": conventions.absolute, "Square": jnp.square, "Sqrt": jnp.sqrt,
    "Exp": jnp.exp, "Log": jnp.log, "Tanh": jnp.tanh, "Sigmoid": _sigmoid,
    "LogicalNot": jnp.logical_not, "Sign": jnp.sign, "Floor": jnp.floor, "Ceil": jnp.ceil,
    "Round": jnp.round, "Log1p": jnp.log1p, "IsFinite": jnp.isfinite, "IsInf": jnp.isinf,
    "IsNan": jnp.isnan, "Relu": conventions.relu,
    "Identity": lambda x: x, "StopGradient": lax.stop_gradient,
}
_BINARY = {
    "Add": jnp.add, "Sub": jnp.subtract, "Mul": jnp.multiply, "Maximum": conventions.maximum,
    "Minimum": conventions.minimum, "Equal": jnp.equal, "NotEqual": jnp.not_equal, "Less": jnp.less,
    "LessEqual": jnp.less_equal, "Greater": jnp.greater, "GreaterEqual": jnp.greater_equal,
    "LogicalAnd": jnp.logical_and, "LogicalOr": jnp.logical_or,
    "LogicalXor": jnp.logical_xor,
}


def _elementwise(fn):
    def rule(ctx, op, *xs):
        return jnp.asarray(fn(*xs), out_dtype(op))

    return rule


for _name, _fn in {**_UNARY, **_BINARY}.items():
    register_lowering(_name)(_elementwise(_fn))


@register_lowering("MatMul")
def _matmul(ctx, op, a, b):
    # Shapes the graph left unknown (an input_signature's None dims) are known now: the
    # kernel's error for them, not JAX's.
    matmul_shape(TensorShape(np.shape(a)), TensorShape(np.shape(b)))
    return jnp.asarray(jnp.matmul(a, b), out_dtype(op))


@register_lowering("RealDiv")
def _real_div(ctx, op, x, y):
    dtype = out_dtype(op)
    return jnp.true_divide(jnp.asarray(x, dtype), jnp.asarray(y, dtype))


def _check_divisor(ctx, op, y):
    if np.dtype(y.dtype).kind in "iu":
        ctx.check(op, y != 0, ZeroDivisionError, "integer division by zero")


@register_lowering("FloorDiv")
def _floor_div(ctx, op, x, y):
    _check_divisor(ctx, op, y)
    return jnp.asarray(jnp.floor_divide(x, y), out_dtype(op))


@register_lowering("FloorMod")
def _floor_mod(ctx, op, x, y):
    _check_divisor(ctx, op, y)
    return jnp.asarray(jnp.mod(x, y), out_dtype(op))


@register_lowering("Pow")
def _pow(ctx, op, x, y):
    if np.dtype(y.dtype).kind == "i":
        ctx.check(op, y >= 0, ValueError,
                  "Integers to negative integer powers are not allowed.")
    power = conventions.power if np.dtype(out_dtype(op)).kind == "f" else jnp.power
    return jnp.asarray(power(x, y), out_dtype(op))


# --- reductions ------------------------------------------------------------------------------


def _int_mean(x, axis, keepdims):
    total = jnp.sum(x, axis=axis, keepdims=keepdims, dtype=jnp.int64)
    count = max(x.size // max(int(np.prod(total.shape)), 1), 1)
    return jnp.sign(total) * (jnp.abs(total) // count)  # truncating, as the kernel


def _mean(x, axis, keepdims):
    if np.dtype(x.dtype).kind in "iu":
        return _int_mean(x, axis, keepdims)
    return jnp.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


def _extreme(fn, lowest):
    def reduce(x, axis, keepdims):
        dtype = np.dtype(x.dtype)
        info = np.finfo if dtype.kind == "f" else np.iinfo
        empty = (-np.inf if lowest else np.inf) if dtype.kind == "f" else (
            info(dtype).min if lowest else info(dtype).max)
        return fn(x, axis=axis, keepdims=keepdims, initial=empty)

    return reduce


_REDUCTIONS = {
    "Sum": lambda x, axis, keepdims: jnp.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    "Prod": lambda x, axis, keepdims: jnp.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
    "Mean": _mean, "Max": _extreme(jnp.max, True), "Min": _extreme(jnp.min, False),
    "Any": jnp.any, "All": jnp.all,
}


def _reduction(fn):
    def rule(ctx, op, x):
        axes = normalize_axes(op.attrs["axis"], x.ndim)
        return jnp.asarray(fn(x, axis=axes, keepdims=op.attrs["keepdims"]), out_dtype(op))

    return rule


for _name, _fn in _REDUCTIONS.items():
    register_lowering(_name)(_reduction(_fn))


@register_lowering("ArgMax", "ArgMin")
def _arg_extreme(ctx, op, x):
    fn = jnp.argmax if op.type == "ArgMax" else jnp.argmin
    return fn(x, axis=normalize_axis(op.attrs["axis"], x.ndim)).astype(out_dtype(op))


@register_lowering("Cumsum", "Cumprod")
def _scan(ctx, op, x):
    attrs = op.attrs
    axis = normalize_axis(attrs["axis"], x.ndim)
    fn, identity = (jnp.cumsum, 0) if op.type == "Cumsum" else (jnp.cumprod, 1)
    if attrs["reverse"]:
        x = jnp.flip(x, axis)
    out = fn(x, axis=axis, dtype=x.dtype)
    if attrs["exclusive"] and x.shape[axis]:
        first = jnp.full_like(lax.slice_in_dim(out, 0, 1, axis=axis), identity)
        out = jnp.concatenate([first, lax.slice_in_dim(out, 0, x.shape[axis] - 1, axis=axis)],
                              axis=axis)
    return jnp.flip(out, axis) if attrs["reverse"] else out


# --- sorting -----------------------------------------------------------------------------------


def _stable_argsort(x, axis, descending):
    if not descending:
        return jnp.argsort(x, axis=axis, stable=True)
    # As the kernel: ties keep their order when sorting descending.
    flipped = jnp.argsort(jnp.flip(x, axis), axis=axis, stable=True)
    return x.shape[axis] - 1 - jnp.flip(flipped, axis)


@register_lowering("Sort")
def _sort(ctx, op, x):
    axis = normalize_axis(op.attrs["axis"], x.ndim)
    ascending = jnp.sort(x, axis=axis)
    return jnp.flip(ascending, axis) if op.attrs["direction"] == "DESCENDING" else ascending


@register_lowering("ArgSort")
def _argsort(ctx, op, x):
    axis = normalize_axis(op.attrs["axis"], x.ndim)
    return _stable_argsort(x, axis, op.attrs["direction"] == "DESCENDING").astype(jnp.int32)


@register_lowering("TopKV2")
def _top_k(ctx, op, x, *k_input):
    k = op.attrs["k"]
    count = int(k if k is not None else static(op, k_input[0], "top_k's k"))
    indices = _stable_argsort(x, x.ndim - 1, True)[..., :count]
    return (jnp.take_along_axis(x, indices, -1),
            indices.astype(op.attrs["index_type"].np_dtype))


@register_lowering("Einsum")
def _einsum(ctx, op, *arrays):
    return jnp.einsum(op.attrs["equation"], *arrays).astype(out_dtype(op))


@register_lowering("LinSpace")
def _linspace(ctx, op, start, stop, *num_input):
    num = op.attrs["num"]
    count = int(num if num is not None else static(op, num_input[0], "linspace's num"))
    rank = len(np.broadcast_shapes(np.shape(start), np.shape(stop)))
    return jnp.linspace(start, stop, count, axis=normalize_axis(op.attrs["axis"], rank, 1),
                        dtype=start.dtype)


def vjp_of(fn, primal, cotangent):
    """The vector-Jacobian product of `fn` at `primal` (rows whose op is an adjoint)."""
    return jax.vjp(fn, primal)[1](cotangent)[0]
