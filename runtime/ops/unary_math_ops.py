"""More elementwise math: sign, floor, ceil, round, log1p, is_finite, is_inf, is_nan, and
clip_by_value (TensorFlow's names; `ag.math` holds them with the other tf.math ops).

Contract: rows built by `elementwise.unary`, so eager and graph mode accept the same
dtypes. sign and round take any number (round of an integer is itself; halves round to
even, as TF's); floor, ceil, log1p and the is_* tests take floats; is_* give bools.
`clip_by_value(t, clip_value_min, clip_value_max)` is minimum then maximum (TF's
composite, so min > max gives min); the bounds broadcast but must not grow `t`'s shape.
"""

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.elementwise import boolean, unary
from autograph_py.runtime.ops.math_ops import maximum, minimum

N, F = infer.NUMERIC, infer.FLOAT

sign = unary("Sign", "sign", np.sign, N, "-1, 0 or 1 by the sign of x elementwise.")
floor = unary("Floor", "floor", np.floor, F, "The largest integer <= x, elementwise.")
ceil = unary("Ceil", "ceil", np.ceil, F, "The smallest integer >= x, elementwise.")
round = unary("Round", "round", np.round, N,  # noqa: A001  (tf.round)
              "x rounded to the nearest integer, halves to even, elementwise.")
log1p = unary("Log1p", "log1p", np.log1p, F, "log(1 + x), accurate for small x.")
is_finite = unary("IsFinite", "is_finite", np.isfinite, F, "x is neither inf nor nan.",
                  result=boolean)
is_inf = unary("IsInf", "is_inf", np.isinf, F, "x is +inf or -inf.", result=boolean)
is_nan = unary("IsNan", "is_nan", np.isnan, F, "x is nan.", result=boolean)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """`t` with entries below `clip_value_min` raised to it and above `clip_value_max`
    lowered to it."""
    t = convert_to_tensor(t)
    clipped = maximum(minimum(t, clip_value_max), clip_value_min, name=name)
    if not clipped.shape.is_compatible_with(t.shape) or (
            t.shape.rank is not None and clipped.shape.rank != t.shape.rank):
        raise ValueError(f"clip_by_value: the bounds must not change the shape of t: t has "
                         f"shape {t.shape}, the clipped result {clipped.shape}")
    return clipped
