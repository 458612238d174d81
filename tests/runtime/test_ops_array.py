"""Shape and selection ops: eager and graph against numpy oracles; static shapes; errors."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import check_op, run_graph
from autograph_py.runtime.session import Session

rng = np.random.default_rng(1)
X = rng.standard_normal((2, 3, 4)).astype(np.float32)


@pytest.mark.parametrize("shape", [[4, 6], [-1], [2, -1, 2], [24, 1], (3, 8)])
def test_reshape(shape):
    check_op(lambda x: ag.reshape(x, shape), [X], lambda x: x.reshape(shape))


def test_reshape_static_shape_with_unknown_input_dims():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 3, 4])
        assert ag.reshape(x, [-1, 12]).shape == (None, 12)
        assert ag.reshape(x, [2, 6, 2]).shape == (2, 6, 2)
        assert ag.reshape(x, ag.shape(x)).shape == (None, 3, 4)  # shape of a tensor
        assert ag.reshape(x, ag.constant([4, 6])).shape == (4, 6)  # Const value is read
        n = ag.placeholder(ag.int32, [])
        dynamic = ag.reshape(x, [n, -1])
        assert dynamic.shape == (None, None)
        assert Session().run(dynamic, {x: X, n: 4}).shape == (4, 6)


def test_reshape_errors_name_op_and_shapes():
    with pytest.raises(ValueError, match=r"Reshape.*size 24.*\(5,5\).*shape=\(2, 3, 4\)"):
        ag.reshape(X, [5, 5])
    with Graph().as_default():
        with pytest.raises(ValueError, match=r"Reshape: cannot reshape a tensor of 24 elements"
                                             r" to shape \(5, 5\).*\(2, 3, 4\)"):
            ag.reshape(ag.placeholder(ag.float32, [2, 3, 4]), [5, 5])
        with pytest.raises(ValueError, match="at most one -1"):
            ag.reshape(ag.placeholder(ag.float32, [2, 3, 4]), [-1, -1])


@pytest.mark.parametrize("perm", [None, [0, 2, 1], [2, 0, 1], [-1, 0, 1]])
def test_transpose(perm):
    check_op(lambda x: ag.transpose(x, perm), [X], lambda x: np.transpose(x, perm))


def test_transpose_rejects_a_non_permutation_in_both_modes():
    with pytest.raises(ValueError, match=r"Transpose: perm \[0, 0, 1\] is not a permutation"):
        ag.transpose(X, [0, 0, 1])
    with Graph().as_default(), pytest.raises(ValueError, match="not a permutation"):
        ag.transpose(ag.placeholder(ag.float32, [2, 3, 4]), [0, 1])


@pytest.mark.parametrize("axis", [0, 1, 3, -1, -4])
def test_expand_dims(axis):
    check_op(lambda x: ag.expand_dims(x, axis), [X], lambda x: np.expand_dims(x, axis))


def test_expand_dims_axis_out_of_range():
    with pytest.raises(ValueError, match="ExpandDims: axis 5 is out of range.*rank 3"):
        ag.expand_dims(X, 5)


@pytest.mark.parametrize("axis", [None, 0, [0, 2], -1])
def test_squeeze(axis):
    x = rng.standard_normal((1, 3, 1)).astype(np.float32)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    check_op(lambda t: ag.squeeze(t, axis), [x], lambda a: np.squeeze(a, np_axis))


def test_squeeze_static_shapes_and_errors():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 1, 3])
        assert ag.squeeze(x).shape.rank is None  # whether dim 0 is 1 is unknown
        assert ag.squeeze(x, [1]).shape == (None, 3)
    with pytest.raises(ValueError, match="Squeeze: cannot squeeze axis 1: its size is 3"):
        ag.squeeze(np.zeros((1, 3)), 1)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((2, 3)).astype(np.float32)
    check_op(lambda x, y: ag.concat([x, y, x], axis), [a, b],
             lambda x, y: np.concatenate([x, y, x], axis))


def test_concat_static_shape_and_errors():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 3])
        assert ag.concat([x, ag.ones([2, 3])], 0).shape == (None, 3)
        assert ag.concat([ag.ones([4, 3]), ag.ones([2, 3])], 0).shape == (6, 3)
        with pytest.raises(ValueError, match=r"ConcatV2: dimension 1 differs.*\(2, 3\).*\(2, 4\)"):
            ag.concat([ag.ones([2, 3]), ag.ones([2, 4])], 0)
    with pytest.raises(ValueError, match=r"ConcatV2.*shape=\(2, 3\).*shape=\(2, 4\)"):
        ag.concat([ag.ones([2, 3]), ag.ones([2, 4])], 0)
    with pytest.raises(TypeError, match=r"concat: .*same dtype.*float32 \(shape \(2,\)\).*int32"):
        ag.concat([ag.ones([2]), ag.constant([1])], 0)


def test_concat_and_stack_convert_python_values_to_the_tensor_dtype():
    assert ag.concat([ag.ones([2]), [5, 6]], 0).numpy().tolist() == [1, 1, 5, 6]
    assert ag.stack([ag.constant(1.5), 2]).dtype == ag.float32


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack_and_unstack(axis):
    a = rng.standard_normal((2, 3)).astype(np.float32)
    check_op(lambda x, y: ag.stack([x, y], axis), [a, a * 2], lambda x, y: np.stack([x, y], axis))
    if axis < 2:
        check_op(lambda x: ag.unstack(x, axis=axis), [a],
                 lambda x: list(np.moveaxis(x, axis, 0)), unknown_dims=False)


def test_unstack_needs_a_known_dimension():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 2])
        with pytest.raises(ValueError, match="unstack: dimension 0 .* is unknown; pass num"):
            ag.unstack(x)
        parts = ag.unstack(x, num=3)
        assert len(parts) == 3 and parts[0].shape == (2,)


@pytest.mark.parametrize("indices,axis", [([1, 0, 1], 0), ([[0, 2], [1, 1]], 1),
                                          (np.array(3), 2), ([], 1)])
def test_gather(indices, axis):
    indices = np.asarray(indices, np.int32)
    check_op(lambda x, i: ag.gather(x, i, axis=axis), [X, indices],
             lambda x, i: np.take(x, i, axis=axis))


def test_gather_out_of_range_is_an_index_error_in_both_modes():
    # TensorFlow's InvalidArgumentError and message (issue 25, bug 6), an IndexError too
    with pytest.raises(ag.InvalidArgumentError, match=r"GatherV2: indices\[1\] = 5 is not in "
                                                      r"\[0, 2\)"):
        ag.gather(X, [0, 5])
    with pytest.raises(IndexError, match=r"indices\[0\] = 5 is not in \[0, 2\)\n  \(op "
                                         r"'GatherV2'"):
        run_graph(lambda x, i: ag.gather(x, i), [X, np.array([5], np.int32)], [None, None])


def test_gather_needs_int_indices():
    with pytest.raises(TypeError, match="GatherV2: indices must be integer tensors, got float32"):
        ag.gather(X, [0.5])


def test_shape_size_rank():
    check_op(ag.shape, [X], lambda x: np.array(x.shape, np.int32))
    check_op(ag.size, [X], lambda x: np.array(x.size, np.int32))
    check_op(ag.rank, [X], lambda x: np.array(x.ndim, np.int32))
    assert ag.shape(X, out_type=ag.int64).dtype == ag.int64
    with Graph().as_default():
        assert ag.shape(ag.placeholder(ag.float32, [None, 3])).shape == (2,)
        assert ag.shape(ag.placeholder(ag.float32)).shape == (None,)


@pytest.mark.parametrize("source,target", [(np.float32, ag.int32), (np.int32, ag.float64),
                                           (np.float64, ag.bool), (np.bool_, ag.float32),
                                           (np.int64, ag.uint8)])
def test_cast(source, target):
    x = (rng.standard_normal((3, 2)) * 5).astype(source)
    result = check_op(lambda t: ag.cast(t, target), [x], lambda a: a.astype(target.np_dtype))
    assert result.dtype is target


def test_cast_truncates_toward_zero_and_same_dtype_is_a_no_op():
    assert ag.cast(ag.constant([-1.7, 1.7]), ag.int32).numpy().tolist() == [-1, 1]
    x = ag.constant([1, 2])
    assert ag.cast(x, ag.int32) is x


def test_where_three_arguments_broadcast():
    cond = rng.random((3, 4)) > 0.5
    a, b = X[0], np.float32(7)
    check_op(ag.where, [cond, a, np.asarray(b)], np.where)
    check_op(lambda c, x: ag.where(c, x, 0.0), [cond, a], lambda c, x: np.where(c, x, 0))


def test_where_one_argument_gives_int64_coordinates():
    cond = rng.random((3, 4)) > 0.5
    result = check_op(ag.where, [cond], lambda c: np.argwhere(c).astype(np.int64),
                      data_dependent=True)
    assert result.dtype == ag.int64
    with Graph().as_default():
        assert ag.where(ag.placeholder(ag.bool, [3, 4])).shape == (None, 2)


def test_where_errors():
    with pytest.raises(TypeError, match="SelectV2: condition must be bool tensors, got int32"):
        ag.where(ag.constant([1, 0]), ag.constant([1, 2]), ag.constant([3, 4]))
    with pytest.raises(TypeError, match="where: both operands must have the same dtype"):
        ag.where(ag.constant([True]), ag.constant([1]), ag.constant([1.0]))
