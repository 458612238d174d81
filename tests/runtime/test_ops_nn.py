"""ag.nn: relu, softmax, conv2d (against a direct-loop oracle)."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import check_op

rng = np.random.default_rng(3)


def test_relu():
    check_op(ag.nn.relu, [rng.standard_normal((3, 4)).astype(np.float32)],
             lambda x: np.maximum(x, 0))
    check_op(ag.nn.relu, [np.array([-2, 0, 3], np.int32)], lambda x: np.maximum(x, 0))


@pytest.mark.parametrize("axis", [-1, 0, 1, None])  # None: TF 2's default, the last axis
def test_softmax(axis):
    x = (rng.standard_normal((3, 4)) * 50).astype(np.float32)  # large: needs the stable form

    def oracle(a):
        axis_ = -1 if axis is None else axis
        e = np.exp(a.astype(np.float64) - a.max(axis=axis_, keepdims=True))
        return (e / e.sum(axis=axis_, keepdims=True)).astype(a.dtype)

    check_op(lambda t: ag.nn.softmax(t, axis), [x], oracle, rtol=1e-5)


def test_softmax_needs_floats():
    with pytest.raises(TypeError, match="Softmax.*floating-point.*int32"):
        ag.nn.softmax(ag.constant([1, 2]))


def _conv_oracle(x, w, stride, padding):
    n, h, wd, _ = x.shape
    kh, kw, _, out = w.shape
    if padding == "SAME":
        ho, wo = -(-h // stride), -(-wd // stride)
        ph, pw = max((ho - 1) * stride + kh - h, 0), max((wo - 1) * stride + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        ho, wo = -(-(h - kh + 1) // stride), -(-(wd - kw + 1) // stride)
    result = np.zeros((n, max(ho, 0), max(wo, 0), out), np.float64)
    for i in range(result.shape[1]):
        for j in range(result.shape[2]):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            result[:, i, j, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return result.astype(x.dtype)


@pytest.mark.parametrize("stride", [1, 2, 3])
@pytest.mark.parametrize("padding", ["SAME", "VALID"])
@pytest.mark.parametrize("x_shape,w_shape", [((2, 7, 8, 3), (3, 2, 3, 4)),
                                             ((1, 5, 5, 2), (1, 1, 2, 3)),
                                             ((1, 2, 6, 1), (3, 3, 1, 2))])
def test_conv2d(stride, padding, x_shape, w_shape):
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    check_op(lambda a, b: ag.nn.conv2d(a, b, stride, padding), [x, w],
             lambda a, b: _conv_oracle(a, b, stride, padding), rtol=1e-4)


def test_conv2d_stride_forms_and_static_shape():
    x, w = ag.ones([1, 6, 6, 2]), ag.ones([3, 3, 2, 1])
    by_int = ag.nn.conv2d(x, w, 2, "SAME").numpy()
    for strides in ([2], [2, 2], [1, 2, 2, 1]):
        np.testing.assert_array_equal(ag.nn.conv2d(x, w, strides, "same").numpy(), by_int)
    with Graph().as_default():
        p = ag.placeholder(ag.float32, [None, 32, None, 3])
        y = ag.nn.conv2d(p, ag.ones([5, 5, 3, 8]), 2, "VALID")
        assert y.shape == (None, 14, None, 8)


def test_conv2d_errors():
    with pytest.raises(ValueError, match=r"Conv2D: input has 3 channels but the filters "
                                         r"expect 2.*\(1, 4, 4, 3\)"):
        ag.nn.conv2d(ag.ones([1, 4, 4, 3]), ag.ones([3, 3, 2, 1]), 1, "SAME")
    with pytest.raises(ValueError, match="padding must be 'SAME' or 'VALID'"):
        ag.nn.conv2d(ag.ones([1, 4, 4, 3]), ag.ones([3, 3, 3, 1]), 1, "FULL")
    with pytest.raises(ValueError, match="strides must be"):
        ag.nn.conv2d(ag.ones([1, 4, 4, 3]), ag.ones([3, 3, 3, 1]), [1, 2, 3], "SAME")
    with pytest.raises(TypeError, match="conv2d: both operands must have the same dtype"):
        ag.nn.conv2d(ag.ones([1, 4, 4, 3]), ag.ones([3, 3, 3, 1], ag.float64), 1, "SAME")
