"""pad, tile, one_hot, boolean_mask against numpy, eagerly, in graphs and through
ag.function, with gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(12)


def normal(*shape):
    return rng.standard_normal(shape)


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad(mode):
    x = normal(3, 4).astype(np.float32)
    paddings = [[1, 2], [2, 0]]
    check_modes(lambda t: ag.pad(t, paddings, mode), [x],
                lambda a: np.pad(a, paddings, mode=mode.lower()))


def test_pad_constant_value_and_ints():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    check_modes(lambda t: ag.pad(t, [[0, 1], [1, 1]], constant_values=-7), [x],
                lambda a: np.pad(a, [[0, 1], [1, 1]], constant_values=-7))


def test_pad_with_paddings_known_at_run_time():
    x = normal(2, 3)
    with ag.Graph().as_default():
        p = ag.placeholder(ag.float64, [2, 3])
        n = ag.placeholder(ag.int32, [])
        y = ag.pad(p, [[0, n], [n, 0]], "SYMMETRIC")
        assert y.shape == (None, None)
        with ag.Session() as sess:
            got = sess.run(y, {p: x, n: 2})
    np.testing.assert_array_equal(got, np.pad(x, [[0, 2], [2, 0]], "symmetric"))


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_gradient(mode):
    check_gradients(lambda t: ag.pad(t, [[2, 1], [1, 2]], mode), [normal(3, 4)])


def test_pad_errors():
    with pytest.raises(ValueError, match=r"PadV2: REFLECT padding of axis 1 must be less "
                                         r"than its size 3"):
        ag.pad(ag.zeros([2, 3]), [[0, 0], [3, 0]], "REFLECT")
    with pytest.raises(ValueError, match=r"paddings must have shape \[2, 2\]"):
        ag.pad(ag.zeros([2, 3]), [[1, 1]])
    with pytest.raises(ValueError, match="mode must be one of"):
        ag.pad(ag.zeros([2]), [[1, 1]], "EDGE")
    with ag.Graph().as_default():  # the shape rule rejects what the kernel rejects
        with pytest.raises(ValueError, match="SYMMETRIC padding of axis 0 must be at most"):
            ag.pad(ag.placeholder(ag.float32, [2]), [[3, 0]], "SYMMETRIC")


@pytest.mark.parametrize("shape, multiples", [((2, 3), [2, 1]), ((3,), [0]),
                                              ((1, 2, 2), [3, 2, 1])])
def test_tile(shape, multiples):
    check_modes(lambda t: ag.tile(t, multiples), [normal(*shape).astype(np.float32)],
                lambda a: np.tile(a, multiples))


def test_tile_gradient():
    check_gradients(lambda t: ag.tile(t, [2, 3]), [normal(2, 2)])


def test_tile_with_multiples_known_at_run_time():
    x = normal(2, 3)
    with ag.Graph().as_default():
        p = ag.placeholder(ag.float64, [2, 3])
        m = ag.placeholder(ag.int32, [2])
        y = ag.tile(p, m)
        with ag.Session() as sess:
            got = sess.run(y, {p: x, m: [2, 2]})
    np.testing.assert_array_equal(got, np.tile(x, [2, 2]))


def test_tile_errors():
    with pytest.raises(ValueError, match=r"Tile: multiples must have one entry per axis"):
        ag.tile(ag.zeros([2, 3]), [2])


def _one_hot_oracle(indices, depth, on=1.0, off=0.0, axis=-1, dtype=np.float32):
    hot = np.expand_dims(indices, -1) == np.arange(depth)
    return np.moveaxis(np.where(hot, on, off).astype(dtype), -1, axis)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_one_hot(axis):
    indices = np.array([[0, 3, -1], [2, 1, 4]], np.int32)  # -1 and 4: rows of off_value
    check_modes(lambda i: ag.one_hot(i, 4, axis=axis), [indices],
                lambda i: _one_hot_oracle(i, 4, axis=-1 if axis is None else axis))


def test_one_hot_values_and_dtypes():
    indices = np.array([1, 0, 2], np.int64)
    check_modes(lambda i: ag.one_hot(i, 3, on_value=5, off_value=-1, dtype=ag.int32),
                [indices], lambda i: _one_hot_oracle(i, 3, 5, -1, dtype=np.int32))
    got = ag.one_hot(indices, 3, on_value=ag.constant(2.0, ag.float64))
    assert got.dtype is ag.float64
    np.testing.assert_array_equal(got.numpy(), _one_hot_oracle(indices, 3, 2.0, 0.0,
                                                               dtype=np.float64))


def test_one_hot_with_depth_known_at_run_time():
    with ag.Graph().as_default():
        i = ag.placeholder(ag.int32, [3])
        depth = ag.placeholder(ag.int32, [])
        y = ag.one_hot(i, depth)
        assert y.shape == (3, None)
        with ag.Session() as sess:
            got = sess.run(y, {i: [0, 2, 1], depth: 3})
    np.testing.assert_array_equal(got, np.eye(3, dtype=np.float32)[[0, 2, 1]])


def test_one_hot_has_no_gradient_and_rejects_float_indices():
    with ag.GradientTape() as tape:
        on = ag.constant(1.0)
        tape.watch(on)
        y = ag.one_hot([0, 1], 2, on_value=on)
    assert tape.gradient(y, on) is None  # as TensorFlow
    with pytest.raises(TypeError, match="OneHot: indices must be integer"):
        ag.one_hot(ag.constant([0.0]), 2)


@pytest.mark.parametrize("shape, mask_shape, axis", [((5,), (5,), None), ((4, 3), (4,), 0),
                                                     ((2, 3, 2), (3, 2), 1),
                                                     ((2, 3, 2), (2, 3), None)])
def test_boolean_mask(shape, mask_shape, axis):
    x = normal(*shape).astype(np.float32)
    mask = rng.random(mask_shape) > 0.4
    index = (slice(None),) * (axis or 0) + (mask,)
    check_modes(lambda t, m: ag.boolean_mask(t, m, axis=axis), [x, mask],
                lambda t, m: t[index], data_dependent=True)


def test_boolean_mask_gradient():
    mask = ag.constant([True, False, True])
    check_gradients(lambda t: ag.boolean_mask(t, mask, axis=1), [normal(2, 3)])


def test_boolean_mask_errors():
    with pytest.raises(ValueError, match=r"BooleanMask: the mask's shape \(3,\) must match"):
        ag.boolean_mask(ag.zeros([2, 2]), [True, False, True])
    with pytest.raises(TypeError, match="mask must be bool"):
        ag.boolean_mask(ag.zeros([2]), [1, 0])
