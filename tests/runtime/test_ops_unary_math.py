"""sign, floor, ceil, round, log1p, is_finite/is_inf/is_nan, clip_by_value and the ag.math
namespace, against numpy, eagerly, in graphs and through ag.function, with gradients."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(2)
HALVES = np.array([-2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7, -3.2], np.float32)
SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, -1.0, 2.5], np.float64)


@pytest.mark.parametrize("fn, oracle", [(ag.sign, np.sign), (ag.floor, np.floor),
                                        (ag.ceil, np.ceil), (ag.round, np.round),
                                        (ag.math.log1p, np.log1p)])
def test_float_ops(fn, oracle):
    x = HALVES if fn is not ag.math.log1p else np.abs(HALVES)
    check_modes(fn, [x], oracle)


@pytest.mark.parametrize("fn, oracle", [(ag.sign, np.sign), (ag.round, np.round)])
def test_integer_ops(fn, oracle):
    check_modes(fn, [np.array([-3, 0, 4], np.int32)], oracle)


def test_round_halves_to_even_as_python_does():
    assert ag.round(HALVES).numpy().tolist() == [round(float(v)) for v in HALVES]


@pytest.mark.parametrize("fn, oracle", [(ag.math.is_finite, np.isfinite),
                                        (ag.math.is_inf, np.isinf), (ag.math.is_nan, np.isnan)])
def test_is_tests(fn, oracle):
    check_modes(fn, [SPECIAL], oracle)


def test_floor_and_ceil_need_floats():
    with pytest.raises(TypeError, match="Floor: inputs must be floating-point"):
        ag.floor(ag.constant([1, 2]))


def test_gradients():
    x = rng.choice([-1.0, 1.0], 5) * rng.uniform(0.2, 0.4, 5) + rng.integers(-3, 3, 5)
    check_gradients(ag.math.log1p, [np.abs(x)])
    check_gradients(lambda t: ag.multiply(ag.sign(t), t), [x])  # |x| through sign's zeros
    with ag.GradientTape() as tape:
        t = ag.constant(x)
        tape.watch(t)
        y = ag.add(ag.floor(t), ag.add(ag.ceil(t), ag.round(t)))
    assert tape.gradient(y, t) is None  # TensorFlow gives these no gradient


@pytest.mark.parametrize("low, high", [(-0.5, 0.5), (0.5, -0.5)])
def test_clip_by_value(low, high):
    x = rng.normal(size=(3, 4)).astype(np.float32)
    check_modes(lambda t: ag.clip_by_value(t, low, high), [x],
                lambda a: np.maximum(np.minimum(a, np.float32(high)), np.float32(low)))


def test_clip_by_value_with_tensor_bounds_and_gradient():
    x, low, high = rng.normal(size=(3, 4)), rng.normal(size=(4,)) - 1, rng.normal(size=(3, 1)) + 1
    check_modes(ag.clip_by_value, [x, low, high],
                lambda a, lo, hi: np.maximum(np.minimum(a, hi), lo))  # TF's order
    check_gradients(ag.clip_by_value, [x, low, high])


def test_clip_by_value_must_not_grow_t():
    with pytest.raises(ValueError, match=r"clip_by_value: the bounds must not change the "
                                         r"shape of t: t has shape \(3,\)"):
        ag.clip_by_value(ag.zeros([3]), ag.zeros([2, 3]), 1.0)


def test_math_namespace_holds_tf_math_names():
    for name in ("abs", "add", "ceil", "cumprod", "cumsum", "divide", "exp", "floor",
                 "floormod", "greater", "is_finite", "is_nan", "log", "log1p", "log_softmax",
                 "logical_and", "maximum", "multiply", "pow", "reduce_logsumexp",
                 "reduce_sum", "round", "sigmoid", "sign", "softmax", "sqrt", "square",
                 "subtract", "tanh", "top_k", "truediv"):
        assert callable(getattr(ag.math, name)), name
    # An alias is the same op as the top-level name.
    assert ag.math.floormod is ag.mod and ag.math.truediv is ag.divide
    assert ag.math.cumsum is ag.cumsum and ag.math.softmax is ag.nn.softmax
