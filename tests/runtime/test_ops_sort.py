"""sort, argsort, math.top_k against numpy (stable orders), eagerly, in graphs and through
ag.function, with gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(5)
# Few distinct values: many ties, so the stable order is checked too.
TIED = rng.integers(0, 4, size=(3, 6)).astype(np.float32)
INTS = rng.integers(-5, 5, size=(4, 5)).astype(np.int32)


def _descending_stable_argsort(a, axis):
    # numpy's stable argsort of -a keeps ties in index order, largest first.
    return np.argsort(-a, axis=axis, kind="stable")


@pytest.mark.parametrize("x", [TIED, INTS], ids=["float32", "int32"])
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
def test_sort_and_argsort(x, axis, direction):
    if direction == "ASCENDING":
        order = lambda a: np.argsort(a, axis=axis, kind="stable")  # noqa: E731
    else:
        order = lambda a: _descending_stable_argsort(a, axis)  # noqa: E731
    check_modes(lambda t: ag.argsort(t, axis, direction), [x],
                lambda a: order(a).astype(np.int32))
    check_modes(lambda t: ag.sort(t, axis, direction), [x],
                lambda a: np.take_along_axis(a, order(a), axis))


@pytest.mark.parametrize("k", [1, 3, 6])
def test_top_k(k):
    def oracle(a):
        indices = _descending_stable_argsort(a, -1)[..., :k]
        return np.take_along_axis(a, indices, -1), indices.astype(np.int32)

    check_modes(lambda t: list(ag.math.top_k(t, k)), [TIED], oracle)


def test_top_k_is_a_named_pair_and_takes_k_at_run_time():
    result = ag.math.top_k(ag.constant([1.0, 3.0, 2.0]), k=2)
    np.testing.assert_array_equal(result.values.numpy(), [3.0, 2.0])
    np.testing.assert_array_equal(result.indices.numpy(), [1, 2])
    assert ag.nn.top_k is ag.math.top_k
    check_modes(lambda t: ag.math.top_k(t, 2, index_type=ag.int64).indices, [TIED],
                lambda a: _descending_stable_argsort(a, -1)[..., :2].astype(np.int64))
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, [2, 4])
        k = ag.placeholder(ag.int32, [])
        values, indices = ag.math.top_k(x, k)
        assert values.shape == (2, None) and indices.dtype is ag.int32
        with ag.Session() as sess:
            got = sess.run(values, {x: TIED[:2, :4], k: 2})
    np.testing.assert_array_equal(got, -np.sort(-TIED[:2, :4], axis=-1)[:, :2])


def test_sort_gradient():
    x = rng.permutation(12).reshape(3, 4) + rng.uniform(0, 0.5, (3, 4))  # distinct values
    check_gradients(lambda t: ag.sort(t, axis=0, direction="DESCENDING"), [x])
    check_gradients(lambda t: ag.sort(t), [x])


def test_top_k_gradient():
    x = rng.permutation(12).reshape(2, 6) + rng.uniform(0, 0.5, (2, 6))
    check_gradients(lambda t: ag.math.top_k(t, 3).values, [x])


def test_sort_errors():
    with pytest.raises(ValueError, match="direction must be 'ASCENDING' or 'DESCENDING'"):
        ag.sort(ag.constant([1.0]), direction="UP")
    with pytest.raises(ValueError, match="TopKV2: input must have at least k=3 entries"):
        ag.math.top_k(ag.constant([1.0, 2.0]), 3)
    with pytest.raises(TypeError, match="index_type must be int32 or int64"):
        ag.math.top_k(ag.constant([1.0]), index_type=ag.float32)
    with pytest.raises(TypeError, match="ArgSort: inputs must be numeric"):
        ag.argsort(ag.constant([True, False]))
