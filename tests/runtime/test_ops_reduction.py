"""Reductions and argmax/argmin: eager and graph against numpy; TensorFlow's dtype rules."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import check_op
from hypothesis import given, settings
from hypothesis import strategies as st

rng = np.random.default_rng(2)
AXES = [None, 0, 1, -1, [0, 2], (2, 0), [1, -3]]


def _int_mean(x, axis=None, keepdims=False):
    total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
    count = x.size // max(np.size(total), 1)
    return np.trunc(total / count).astype(x.dtype)


NUMERIC = [
    (ag.reduce_sum, lambda x, **k: np.sum(x, dtype=x.dtype, **k)),
    (ag.reduce_prod, lambda x, **k: np.prod(x, dtype=x.dtype, **k)),
    (ag.reduce_max, np.max),
    (ag.reduce_min, np.min),
]


def _np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


@pytest.mark.parametrize("fn,oracle", NUMERIC + [(ag.reduce_mean, np.mean)],
                         ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_float_reductions(fn, oracle, axis, keepdims):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    check_op(lambda t: fn(t, axis, keepdims), [x],
             lambda a: np.asarray(oracle(a, axis=_np_axis(axis), keepdims=keepdims), a.dtype),
             rtol=1e-5)


@pytest.mark.parametrize("fn,oracle", NUMERIC + [(ag.reduce_mean, _int_mean)],
                         ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("axis", [None, 1, [0, 2]])
def test_integer_reductions_keep_the_dtype(fn, oracle, axis):
    x = rng.integers(-5, 6, (2, 3, 4)).astype(np.int32)
    result = check_op(lambda t: fn(t, axis), [x],
                      lambda a: np.asarray(oracle(a, axis=_np_axis(axis)), a.dtype))
    assert result.dtype == ag.int32


def test_integer_mean_truncates_toward_zero():
    assert int(ag.reduce_mean(ag.constant([1, 2]))) == 1
    assert int(ag.reduce_mean(ag.constant([-1, -2]))) == -1


@pytest.mark.parametrize("fn,np_fn", [(ag.reduce_any, np.any), (ag.reduce_all, np.all)])
@pytest.mark.parametrize("axis", [None, 0, [1, 2]])
def test_logical_reductions(fn, np_fn, axis):
    x = rng.random((2, 3, 4)) > 0.3
    check_op(lambda t: fn(t, axis), [x], lambda a: np_fn(a, axis=_np_axis(axis)))


def test_duplicate_axes_are_fine():
    x = np.ones((2, 3), np.float32)
    assert ag.reduce_sum(x, [1, -1]).numpy().tolist() == [3, 3]


def test_max_min_of_nothing_are_the_extremes():
    assert ag.reduce_max(ag.zeros([0])).numpy() == -np.inf
    assert int(ag.reduce_min(ag.zeros([0], ag.int32))) == np.iinfo(np.int32).max


def test_reduction_dtype_errors():
    with pytest.raises(TypeError, match="Sum: inputs must be numeric tensors, got bool"):
        ag.reduce_sum(ag.constant([True]))
    with pytest.raises(TypeError, match="Any: inputs must be bool tensors, got float32"):
        ag.reduce_any(ag.ones([2]))


def test_axis_out_of_range_in_both_modes():
    with pytest.raises(ValueError, match=r"Sum: axis 2 is out of range.*rank 2.*shape=\(2, 3\)"):
        ag.reduce_sum(ag.ones([2, 3]), 2)
    with Graph().as_default(), pytest.raises(ValueError, match="Sum: axis 2 is out of range"):
        ag.reduce_sum(ag.placeholder(ag.float32, [None, 3]), 2)
    with pytest.raises(ValueError, match="axis 0 is out of range.*rank 0"):
        ag.reduce_sum(ag.constant(1.0), 0)


def test_static_shapes_with_unknown_dims():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 3, None])
        assert ag.reduce_sum(x, 1).shape == (None, None)
        assert ag.reduce_mean(x, [0, 1], keepdims=True).shape == (1, 1, None)
        assert ag.reduce_max(x).shape == ()


@pytest.mark.parametrize("fn,np_fn", [(ag.argmax, np.argmax), (ag.argmin, np.argmin)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_argmin(fn, np_fn, axis):
    x = rng.integers(0, 4, (3, 5)).astype(np.float32)  # ties: the first index wins
    result = check_op(lambda t: fn(t, axis), [x],
                      lambda a: np_fn(a, axis=0 if axis is None else axis).astype(np.int64))
    assert result.dtype == ag.int64
    assert fn(x, axis, output_type=ag.int32).dtype == ag.int32


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-100, 100), min_size=1, max_size=8))
def test_sum_mean_property(values):
    x = np.array(values, np.int32)
    assert int(ag.reduce_sum(x)) == sum(values)
    assert int(ag.reduce_mean(x)) == int(sum(values) / len(values))
