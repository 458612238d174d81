"""Variance and standard deviation (`tf.math.reduce_variance`, `tf.math.reduce_std`) and
`tf.nn.moments`, composed of existing ops as TensorFlow composes them (their gradients
come from those ops' rules).

Contract:
- `reduce_variance(input_tensor, axis=None, keepdims=False)`: the mean of the squared
  deviations from the mean over `axis` (the population variance, no Bessel correction);
  `reduce_std` is its square root. Floating dtypes only: an integer tensor is a
  TypeError saying to cast it (TensorFlow refuses integers too). Reducing an empty axis
  gives nan, as numpy.
- `moments(x, axes, shift=None, keepdims=False)`: the pair (mean, variance) over `axes`;
  float16 is computed in float32 and rounded back; `shift` is accepted and unused, as in
  TensorFlow 2. TensorFlow stops the mean's gradient inside the variance, harmless for
  first derivatives (that path contributes zero) but wrong for second ones; here the
  variance is differentiated through the mean, so Hessians are right too.
"""

from autograph_py.runtime import dtypes
from autograph_py.runtime.graph import name_scope
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import cast, squeeze
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.reduction_ops import reduce_mean


def _float_tensor(value, fn):
    x = convert_to_tensor(value)
    if not x.dtype.is_floating:
        raise TypeError(f"{fn} needs a floating-point tensor, got {x.dtype.name}; cast it "
                        f"first (ag.cast(x, ag.float32))")
    return x


def _variance(x, axis, keepdims, name=None):
    deviations = m.subtract(x, reduce_mean(x, axis=axis, keepdims=True))
    return reduce_mean(m.square(deviations), axis=axis, keepdims=keepdims, name=name)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The variance of `input_tensor`'s elements over `axis` (all axes by default)."""
    return _variance(_float_tensor(input_tensor, "reduce_variance"), axis, keepdims, name)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation of `input_tensor`'s elements over `axis`."""
    x = _float_tensor(input_tensor, "reduce_std")
    return m.sqrt(_variance(x, axis, keepdims), name=name)


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`."""
    x = _float_tensor(x, "moments")
    with name_scope(name or "moments"):
        half = x.dtype is dtypes.float16
        y = cast(x, dtypes.float32) if half else x
        mean = reduce_mean(y, axis=axes, keepdims=True)
        variance = reduce_mean(m.square(m.subtract(y, mean)), axis=axes, keepdims=True)
        if not keepdims:
            mean, variance = squeeze(mean, axes), squeeze(variance, axes)
        if half:
            mean, variance = cast(mean, dtypes.float16), cast(variance, dtypes.float16)
    return mean, variance
