"""cumsum, cumprod and linspace against numpy, eagerly, in graphs and through
ag.function, with gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(8)


def _scan_oracle(np_fn, identity, axis, exclusive, reverse):
    """The scan written with Python loops over the axis: the definition, not numpy's
    cumsum flags (numpy has none)."""

    def oracle(a):
        moved = np.moveaxis(a, axis, 0)
        out = np.empty_like(moved)
        n = moved.shape[0]
        for i in range(n):
            span = range(i + 1, n) if reverse else range(i)
            if not exclusive:
                span = range(i, n) if reverse else range(i + 1)
            acc = np.full_like(moved[0], identity)
            for j in span:
                acc = np_fn(acc, moved[j])
            out[i] = acc
        return np.moveaxis(out, 0, axis)

    return oracle


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumsum_and_cumprod(axis, exclusive, reverse):
    x = rng.uniform(0.5, 1.5, (3, 4)).astype(np.float32)
    flags = dict(exclusive=exclusive, reverse=reverse)
    check_modes(lambda t: ag.cumsum(t, axis, **flags), [x],
                _scan_oracle(np.add, 0, axis, exclusive, reverse), rtol=1e-5)
    check_modes(lambda t: ag.math.cumprod(t, axis, **flags), [x],
                _scan_oracle(np.multiply, 1, axis, exclusive, reverse), rtol=1e-5)


def test_cumsum_of_ints_and_empty_axes():
    x = rng.integers(-9, 9, (2, 5)).astype(np.int64)
    check_modes(lambda t: ag.cumsum(t, 1, exclusive=True), [x],
                _scan_oracle(np.add, 0, 1, True, False))
    empty = np.zeros((0, 3), np.float32)
    check_modes(lambda t: ag.cumprod(t, 0, exclusive=True), [empty], lambda a: a)


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_gradients(exclusive, reverse):
    x = rng.uniform(0.5, 1.5, (3, 4))
    check_gradients(lambda t: ag.cumsum(t, 1, exclusive, reverse), [x])
    check_gradients(lambda t: ag.cumprod(t, 0, exclusive, reverse), [x])


def test_scan_errors():
    with pytest.raises(ValueError, match="Cumsum: axis 2 is out of range"):
        ag.cumsum(ag.zeros([2, 2]), axis=2)


@pytest.mark.parametrize("num", [1, 2, 7])
def test_linspace(num):
    check_modes(lambda a, b: ag.linspace(a, b, num), [np.float32(-1.5), np.float32(4.0)],
                lambda a, b: np.linspace(a, b, num, dtype=np.float32))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_linspace_nd(axis):
    start = rng.normal(size=(2, 1))
    stop = rng.normal(size=(3,))
    check_modes(lambda a, b: ag.linspace(a, b, 4, axis=axis), [start, stop],
                lambda a, b: np.linspace(a, b, 4, axis=axis))


def test_linspace_gradient():
    check_gradients(lambda a, b: ag.linspace(a, b, 5, axis=1),
                    [rng.normal(size=(2, 1)), rng.normal(size=(3,))])
    check_gradients(lambda a, b: ag.linspace(a, b, 1), [rng.normal(size=()),
                                                        rng.normal(size=())])


def test_linspace_with_num_known_at_run_time():
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, [])
        y = ag.linspace(0.0, 1.0, n)
        assert y.shape == (None,)
        with ag.Session() as sess:
            got = sess.run(y, {n: 5})
    np.testing.assert_allclose(got, np.linspace(0, 1, 5))


def test_linspace_errors():
    with pytest.raises(TypeError, match="LinSpace: inputs must be floating-point"):
        ag.linspace(ag.constant(0), ag.constant(3), 4)
    with pytest.raises(ValueError, match="num must be non-negative"):
        ag.linspace(0.0, 1.0, -1)
