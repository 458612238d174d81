"""x[index]: one StridedSlice op; eager and graph against numpy; static shapes; errors."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.errors import OpError
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import check_op, run_graph
from hypothesis import given, settings
from hypothesis import strategies as st

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

STATIC_INDICES = [
    0, -1, (1, 2), (0, -1, 4), slice(None), slice(1, None), slice(None, None, -1),
    slice(-2, None), slice(None, None, 2), (slice(None), 1), (Ellipsis, 0),
    (None, 0), (0, None, slice(1, 3)), (Ellipsis, None), (1, Ellipsis, slice(None, 2)),
    [2, 0], ([0, 2], slice(None), [1, 4]), (slice(None), [[0, 1], [3, 3]]),
    (slice(None), [0, 1], slice(None)), ([0, 1], 1, [2, 3]), (slice(5, 10),),
    (slice(3, 1),), (slice(None), slice(None), slice(-100, 100, 3)), np.array([1, 1]), [],
]


@pytest.mark.parametrize("index", STATIC_INDICES, ids=repr)
def test_static_indices_match_numpy(index):
    check_op(lambda x: x[index], [X], lambda x: x[index])


@pytest.mark.parametrize("fn,oracle", [
    (lambda x, i: x[i], lambda x, i: x[int(i)]),
    (lambda x, i: x[1, i], lambda x, i: x[1, int(i)]),
    (lambda x, i: x[:, i:], lambda x, i: x[:, int(i):]),
    (lambda x, i: x[..., i - 1:i + 2:2], lambda x, i: x[..., int(i) - 1:int(i) + 2:2]),
    (lambda x, i: x[-i], lambda x, i: x[-int(i)]),
])
def test_scalar_tensor_indices_are_dynamic_inputs(fn, oracle):
    check_op(fn, [X, np.array(2, np.int32)], oracle, data_dependent=True)


def test_tensor_fancy_index():
    check_op(lambda x, i: x[i, 1], [X, np.array([[2, 0]], np.int32)], lambda x, i: x[i, 1])


def test_static_shapes_with_unknown_dims_and_dynamic_bounds():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 4, 5])
        i = ag.placeholder(ag.int32, [])
        assert x[0].shape == (4, 5)
        assert x[:2].shape == (None, 4, 5)  # could be shorter than 2
        assert x[:, 1:3].shape == (None, 2, 5)
        assert x[..., i].shape == (None, 4)
        assert x[:, i:].shape == (None, None, 5)
        assert x[None, :, 0, [1, 2, 3]].shape == (1, None, 3)
        assert x[[0, 1]].shape == (2, 4, 5)
        assert ag.placeholder(ag.float32)[0, 1:].shape.rank is None
        assert x[i].op.type == "StridedSlice" and x[i].op.inputs[1] is i


def test_out_of_range_static_index_fails_at_build_time_when_the_dim_is_known():
    with pytest.raises(IndexError, match="StridedSlice: index 3 is out of bounds for axis 0 "
                                         r"with size 3.*shape=\(3, 4, 5\)"):
        ag.constant(X)[3]
    with Graph().as_default():
        with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 4"):
            ag.placeholder(ag.float32, [None, 4])[0, 5]
        with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3"):
            ag.placeholder(ag.float32, [3])[[0, 7]]


def test_out_of_range_dynamic_index_fails_at_run_time():
    with pytest.raises(OpError, match="IndexError: index 7 is out of bounds for axis 0 with "
                                      "size 3") as info:
        run_graph(lambda x, i: x[i], [X, np.array(7, np.int32)], [[None, 4, 5], []])
    assert isinstance(info.value.cause, IndexError)
    with pytest.raises(OpError, match="index 9 is out of bounds for axis 1 with size 4"):
        run_graph(lambda x, i: x[:, i], [X, np.array([0, 9], np.int32)], [X.shape, [None]])
    with pytest.raises(OpError, match="index 4 is out of bounds for axis 0 with size 3"):
        run_graph(lambda x: x[4], [X], [[None, 4, 5]])


def test_bad_indices():
    x = ag.constant(X)
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., 0, ...]
    with pytest.raises(TypeError, match="boolean mask indexing is not supported"):
        x[ag.constant([True, False, True])]
    with pytest.raises(TypeError, match="integer dtype, got float32"):
        x[ag.constant(1.0)]
    with pytest.raises(TypeError, match="cannot index a tensor with 'a'"):
        x["a"]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.none() | st.integers(-6, 6), st.none() | st.integers(-6, 6),
                 st.none() | st.integers(-3, 3).filter(bool)),
       st.integers(0, 2))
def test_slices_property(bounds, axis):
    index = (slice(None),) * axis + (slice(*bounds),)
    check_op(lambda x: x[index], [X], lambda x: x[index], unknown_dims=False)
    with Graph().as_default():
        p = ag.placeholder(ag.float32, [3, 4, 5])
        assert p[index].shape == X[index].shape
