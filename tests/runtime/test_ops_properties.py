"""Property tests (hypothesis) of the new ops: random shapes and arguments, against numpy,
eagerly and in graphs whose placeholders have unknown dims."""

import numpy as np
from autograph_py.runtime.ops.testing import check_op
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph_py as ag

shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


def _array(shape, seed):
    # Few distinct values, so orders with ties are exercised too.
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)


@settings(max_examples=25, deadline=None)
@given(shapes, st.data(), st.sampled_from(["CONSTANT", "REFLECT", "SYMMETRIC"]))
def test_pad_matches_numpy(shape, data, mode):
    limit = {"CONSTANT": lambda d: 3, "REFLECT": lambda d: d - 1, "SYMMETRIC": lambda d: d}
    paddings = [[data.draw(st.integers(0, limit[mode](d))) for _ in range(2)] for d in shape]
    check_op(lambda t: ag.pad(t, paddings, mode), [_array(shape, 0)],
             lambda a: np.pad(a, paddings, mode=mode.lower()))


@settings(max_examples=25, deadline=None)
@given(shapes, st.data())
def test_tile_and_scans_match_numpy(shape, data):
    multiples = [data.draw(st.integers(0, 3)) for _ in shape]
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = _array(shape, 1)
    check_op(lambda t: ag.tile(t, multiples), [x], lambda a: np.tile(a, multiples))
    check_op(lambda t: ag.cumsum(t, axis, reverse=True), [x],
             lambda a: np.flip(np.cumsum(np.flip(a, axis), axis), axis))


@settings(max_examples=25, deadline=None)
@given(shapes, st.data(), st.sampled_from(["ASCENDING", "DESCENDING"]))
def test_sorting_matches_numpy(shape, data, direction):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = _array(shape, 2)
    sign = 1 if direction == "ASCENDING" else -1
    order = np.argsort(sign * x, axis=axis, kind="stable")
    check_op(lambda t: ag.argsort(t, axis, direction), [x], lambda a: order.astype(np.int32))
    check_op(lambda t: ag.sort(t, axis, direction), [x],
             lambda a: np.take_along_axis(a, order, axis))
    k = data.draw(st.integers(0, shape[-1]))
    top = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    check_op(lambda t: list(ag.math.top_k(t, k)), [x],
             lambda a: [np.take_along_axis(a, top, -1), top.astype(np.int32)])
