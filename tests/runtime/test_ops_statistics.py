"""ag.math.reduce_variance, ag.math.reduce_std and ag.nn.moments against numpy, eagerly,
in graphs, through ag.function and compiled; gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(52)
AXES = [(None, False), (0, False), (1, True), ([0, 2], False), ([-1, 0], True), ([], False)]


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@pytest.mark.parametrize("axis, keepdims", AXES)
@pytest.mark.parametrize("name, oracle", [("reduce_variance", np.var), ("reduce_std", np.std)])
def test_variance_and_std(name, oracle, axis, keepdims):
    x = rng.standard_normal((3, 4, 2)).astype(np.float32)
    fn = getattr(ag.math, name)
    check_modes(lambda t: fn(t, axis=axis, keepdims=keepdims), [x],
                lambda a: oracle(a.astype(np.float64), axis=_axis(axis),
                                 keepdims=keepdims).astype(np.float32), rtol=1e-5)


@pytest.mark.parametrize("axes, keepdims", AXES[1:])
def test_moments(axes, keepdims):
    x = rng.standard_normal((3, 4, 2)) * 10 + 3
    axis = _axis(axes)
    check_modes(lambda t: ag.nn.moments(t, axes, keepdims=keepdims), [x],
                lambda a: (np.mean(a, axis=axis, keepdims=keepdims),
                           np.var(a, axis=axis, keepdims=keepdims)), rtol=1e-9)


def test_moments_of_float16_are_computed_in_float32():
    x = (rng.standard_normal((64, 3)) * 30 + 200).astype(np.float16)
    mean, variance = ag.nn.moments(x, [0])
    assert mean.dtype == ag.float16 and variance.dtype == ag.float16
    wide = x.astype(np.float32)
    np.testing.assert_array_equal(mean.numpy(), wide.mean(0).astype(np.float16))
    np.testing.assert_array_equal(variance.numpy(), wide.var(0).astype(np.float16))


def test_moments_names_its_ops_in_a_graph():
    with ag.Graph().as_default():
        mean, variance = ag.nn.moments(ag.placeholder(ag.float32, [4, 2]), [0], name="stats")
    assert mean.name.startswith("stats/") and variance.name.startswith("stats/")


@pytest.mark.parametrize("fn", [
    lambda t: ag.math.reduce_variance(t, axis=1),
    lambda t: ag.math.reduce_std(t, axis=[0, 1], keepdims=True),
    lambda t: ag.math.reduce_std(t),
    lambda t: ag.nn.moments(t, [0])[0] * ag.nn.moments(t, [0])[1],
], ids=["variance", "std keepdims", "std of all", "moments"])
def test_gradients(fn):
    check_gradients(fn, [rng.standard_normal((3, 4))])


@pytest.mark.parametrize("name", ["reduce_variance", "reduce_std"])
def test_integer_input_is_refused_with_the_fix(name):
    with pytest.raises(TypeError, match=rf"{name} needs a floating-point tensor, got int32; "
                                        r"cast it first"):
        getattr(ag.math, name)(ag.constant([1, 2, 3]))
    with pytest.raises(TypeError, match="moments needs a floating-point tensor, got int64"):
        ag.nn.moments(np.array([1, 2]), [0])
