"""nn.log_softmax, nn.sparse_softmax_cross_entropy_with_logits and
nn.sigmoid_cross_entropy_with_logits against numpy definitions, eagerly, in graphs and
through ag.function, with gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(17)


def _log_softmax(a, axis=-1):
    a = a.astype(np.float64)
    shifted = a - a.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("axis", [None, 0, -1])
def test_log_softmax(axis):
    x = (rng.normal(size=(3, 5)) * 100).astype(np.float32)  # large: needs the stable form
    check_modes(lambda t: ag.nn.log_softmax(t, axis), [x],
                lambda a: _log_softmax(a, -1 if axis is None else axis).astype(np.float32),
                rtol=1e-5)


def test_log_softmax_gradient():
    check_gradients(ag.nn.log_softmax, [rng.normal(size=(2, 4))])
    check_gradients(lambda t: ag.nn.log_softmax(t, axis=0), [rng.normal(size=(3, 2))])


def _sparse_xent(labels, logits):
    log_p = _log_softmax(logits)
    return -np.take_along_axis(log_p, labels[..., None].astype(np.int64), -1)[..., 0]


@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy(label_dtype):
    labels = np.array([[0, 3], [2, 1], [3, 3]], label_dtype)
    logits = (rng.normal(size=(3, 2, 4)) * 30).astype(np.float32)
    check_modes(lambda y, x: ag.nn.sparse_softmax_cross_entropy_with_logits(
        labels=y, logits=x), [labels, logits],
        lambda y, x: _sparse_xent(y, x).astype(np.float32), rtol=1e-5)


def test_sparse_softmax_cross_entropy_gradient():
    labels = ag.constant([1, 0, 2])
    check_gradients(lambda x: ag.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=x), [rng.normal(size=(3, 4))])


def test_sparse_softmax_cross_entropy_errors():
    logits = ag.zeros([2, 3])
    with pytest.raises(ValueError, match=r"labels must be in \[0, 3\) \(the number of "
                                         r"classes\), got 3 at index \(1,\)"):
        ag.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 3], logits=logits)
    with pytest.raises(ValueError, match="logits must have shape labels.shape"):
        ag.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1, 2], logits=logits)
    with pytest.raises(TypeError, match="labels must be integer"):
        ag.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=logits)


def _sigmoid_xent(labels, logits):
    p = 1 / (1 + np.exp(-logits.astype(np.float64)))
    return -(labels * np.log(p) + (1 - labels) * np.log1p(-p))


def test_sigmoid_cross_entropy():
    logits = rng.normal(size=(3, 4)).astype(np.float32) * 4
    labels = rng.uniform(size=(3, 4)).astype(np.float32)
    check_modes(lambda y, x: ag.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x),
                [labels, logits], lambda y, x: _sigmoid_xent(y, x).astype(np.float32),
                rtol=1e-5)


def test_sigmoid_cross_entropy_is_stable_for_large_logits():
    logits = np.array([-200.0, 200.0, 0.0])
    labels = np.array([1.0, 0.0, 1.0])
    got = ag.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits).numpy()
    np.testing.assert_allclose(got, [200.0, 200.0, np.log(2.0)])


def test_sigmoid_cross_entropy_gradient():
    logits = rng.normal(size=(2, 3))
    logits[0, 0] = 0.0  # TF's where form: the slope at 0 is sigmoid(0) - label
    check_gradients(lambda y, x: ag.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x),
                    [rng.uniform(size=(2, 3)), logits])


def test_sigmoid_cross_entropy_shapes_must_match():
    with pytest.raises(ValueError, match="logits and labels must have the same shape"):
        ag.nn.sigmoid_cross_entropy_with_logits(labels=ag.zeros([3]), logits=ag.zeros([2, 3]))
