"""zeros, ones, fill, zeros_like, ones_like, range."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import assert_same_array, check_op
from autograph_py.runtime.session import Session
from hypothesis import given
from hypothesis import strategies as st


@pytest.mark.parametrize("fn,np_fn", [(ag.zeros, np.zeros), (ag.ones, np.ones)])
@pytest.mark.parametrize("dtype", [ag.float32, ag.int32, ag.bool, ag.float64])
def test_zeros_ones(fn, np_fn, dtype):
    result = fn((2, 3), dtype=dtype)
    assert_same_array(result.numpy(), np_fn((2, 3), dtype.np_dtype))
    with Graph().as_default():
        symbolic = fn([2, 3], dtype)
        assert symbolic.shape == (2, 3) and symbolic.dtype is dtype
        assert_same_array(Session().run(symbolic), result.numpy())


def test_default_dtype_is_float32_and_scalars_work():
    assert ag.zeros([]).dtype == ag.float32 and ag.zeros([]).shape == ()
    assert ag.ones(3).numpy().tolist() == [1, 1, 1]


def test_fill_with_a_dynamic_shape():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 3])
        filled = ag.fill(ag.shape(x), 7)
        assert filled.shape == (None, 3) and filled.dtype == ag.int32
        mixed = ag.zeros([ag.shape(x)[0], 2])
        assert mixed.shape == (None, 2)
        values = Session().run([filled, mixed], {x: np.ones((4, 3))})
    assert_same_array(values[0], np.full((4, 3), 7, np.int32))
    assert_same_array(values[1], np.zeros((4, 2), np.float32))


def test_fill_errors():
    with pytest.raises(ValueError, match="Fill: the fill value must be a scalar"):
        ag.fill([2], [1, 2])
    with pytest.raises(ValueError, match="Fill.*negative"):
        ag.zeros([-1, 2])


@pytest.mark.parametrize("fn,np_fn", [(ag.zeros_like, np.zeros_like), (ag.ones_like, np.ones_like)])
def test_like(fn, np_fn):
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    check_op(fn, [x], np_fn)
    check_op(lambda t: fn(t, dtype=ag.float32), [x], lambda a: np_fn(a, dtype=np.float32))


@pytest.mark.parametrize("args,kwargs,expected", [
    ((5,), {}, np.arange(5, dtype=np.int32)),
    ((0, 4), {}, np.arange(4, dtype=np.int32)),
    ((2, 10, 3), {}, np.arange(2, 10, 3, dtype=np.int32)),
    ((10, 2, -3), {}, np.arange(10, 2, -3, dtype=np.int32)),
    ((0, 1, 0.25), {}, np.arange(0, 1, 0.25, dtype=np.float32)),
    ((1.5,), {}, np.arange(1.5, dtype=np.float32)),
    ((5,), {"dtype": ag.float64}, np.arange(5, dtype=np.float64)),
    ((5, 0), {}, np.arange(5, 0, dtype=np.int32)),
])
def test_range(args, kwargs, expected):
    result = ag.range(*args, **kwargs)
    assert_same_array(result.numpy(), expected)
    with Graph().as_default():
        symbolic = ag.range(*args, **kwargs)
        assert symbolic.shape == expected.shape
        assert_same_array(Session().run(symbolic), expected)


def test_range_with_a_symbolic_limit_and_widest_dtype():
    with Graph().as_default():
        n = ag.placeholder(ag.int32, [])
        r = ag.range(n)
        assert r.shape == (None,) and r.dtype == ag.int32
        assert_same_array(Session().run(r, {n: 3}), np.arange(3, dtype=np.int32))
    assert ag.range(ag.constant(3, dtype=ag.int64)).dtype == ag.int64
    assert ag.range(ag.constant(3, dtype=ag.int64), 0.5, -1).dtype == ag.float32


def test_range_delta_zero():
    with pytest.raises(ValueError, match="delta must not be 0"):
        ag.range(0, 5, 0)


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-5, 5).filter(bool))
def test_range_matches_python(start, limit, delta):
    assert ag.range(start, limit, delta).numpy().tolist() == list(range(start, limit, delta))


def test_a_value_that_overflows_the_dtype_is_refused():
    import pytest

    import autograph_py as ag

    with pytest.raises(TypeError, match="overflows to inf"):
        ag.constant(1.5e300, dtype=ag.float32)
    assert float(ag.constant(1.5e30, dtype=ag.float32)) == pytest.approx(1.5e30, rel=1e-6)


@pytest.mark.parametrize("make, op", [
    (lambda dims: ag.ones(dims), "ones"),
    (lambda dims: ag.zeros(dims), "zeros"),
    (lambda dims: ag.fill(dims, 1.0), "fill"),
    (lambda dims: ag.reshape(ag.ones([4]), dims), "reshape"),
])
@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_a_float_dimension_is_refused_not_truncated(make, op, mode):
    # Issue 25, bug 5: `ones([2.5])` had shape (2,), `int` truncating the dimension.
    def dims():
        if mode == "eager":
            return [2.5, 2]
        return [ag.placeholder(ag.float32, shape=()), 2]

    def run():
        if mode == "eager":
            return make(dims())
        with Graph().as_default():
            return make(dims())

    with pytest.raises(TypeError, match=rf"^{op}: shape dimension 0 must be an integer, got"):
        run()
    assert make([2, 2]).shape == (2, 2)  # integers, as before
