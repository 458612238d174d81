"""Elementwise ops and matmul: eager and graph against numpy oracles."""

import autograph_py.runtime  # noqa: F401  (registers the ops)
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import check_op
from hypothesis import given, settings
from hypothesis import strategies as st

rng = np.random.default_rng(0)


def _floats(shape, dtype=np.float32, low=-3, high=3):
    return rng.uniform(low, high, shape).astype(dtype)


def _ints(shape, dtype=np.int32, low=-9, high=10):
    return rng.integers(low, high, shape).astype(dtype)


def _sigmoid(x):
    return (1 / (1 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


UNARY = [
    (ag.negative, np.negative, _ints),
    (ag.negative, np.negative, _floats),
    (ag.abs, np.abs, _ints),
    (ag.square, np.square, _floats),
    (ag.sqrt, np.sqrt, lambda s: _floats(s, low=0)),
    (ag.exp, np.exp, _floats),
    (ag.log, np.log, lambda s: _floats(s, np.float64, low=0.1)),
    (ag.tanh, np.tanh, _floats),
    (ag.sigmoid, _sigmoid, _floats),
    (ag.logical_not, np.logical_not, lambda s: rng.random(s) > 0.5),
]


@pytest.mark.parametrize("fn,oracle,make", UNARY, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_unary_ops(fn, oracle, make, shape):
    check_op(fn, [make(shape)], oracle, rtol=1e-5)


BINARY = [
    (ag.add, np.add, _floats),
    (ag.add, np.add, _ints),
    (ag.subtract, np.subtract, _ints),
    (ag.multiply, np.multiply, _floats),
    (ag.maximum, np.maximum, _ints),
    (ag.minimum, np.minimum, _floats),
    (ag.equal, np.equal, _ints),
    (ag.not_equal, np.not_equal, _ints),
    (ag.less, np.less, _ints),
    (ag.less_equal, np.less_equal, _floats),
    (ag.greater, np.greater, _ints),
    (ag.greater_equal, np.greater_equal, _floats),
    (ag.logical_and, np.logical_and, lambda s: rng.random(s) > 0.5),
    (ag.logical_or, np.logical_or, lambda s: rng.random(s) > 0.5),
    (ag.logical_xor, np.logical_xor, lambda s: rng.random(s) > 0.5),
]


@pytest.mark.parametrize("fn,oracle,make", BINARY, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("shapes", [((), ()), ((2, 3), (2, 3)), ((2, 3), (3,)),
                                    ((4, 1), (1, 5))])
def test_binary_ops_broadcast(fn, oracle, make, shapes):
    check_op(fn, [make(shapes[0]), make(shapes[1])], oracle)


def _nonzero_ints(shape, dtype=np.int32):
    values = _ints(shape, dtype)
    return np.where(values == 0, 3, values).astype(dtype)


@given(st.integers(-50, 50), st.integers(-50, 50).filter(bool))
def test_floordiv_and_mod_follow_python(a, b):
    assert int(ag.floordiv(ag.constant(a), b)) == a // b
    assert int(ag.mod(ag.constant(a), b)) == a % b
    assert float(ag.mod(ag.constant(float(a)), float(b))) == float(a) % float(b)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32])
def test_floordiv_mod_against_numpy(dtype):
    x, y = _ints((3, 4)).astype(dtype), _nonzero_ints((4,)).astype(dtype)
    check_op(ag.floordiv, [x, y], np.floor_divide)
    check_op(ag.mod, [x, y], np.mod)


@pytest.mark.parametrize("dtype,expected", [(np.int8, np.float32), (np.int16, np.float32),
                                            (np.uint8, np.float32), (np.int32, np.float64),
                                            (np.int64, np.float64), (np.float32, np.float32),
                                            (np.float64, np.float64), (np.float16, np.float16)])
def test_divide_is_true_division_with_tensorflow_dtypes(dtype, expected):
    x, y = _nonzero_ints((5,)).astype(dtype), _nonzero_ints((5,)).astype(dtype)
    result = check_op(ag.divide, [x, y],
                      lambda a, b: (a.astype(expected) / b.astype(expected)).astype(expected),
                      rtol=1e-3)
    assert result.dtype.np_dtype == expected


def test_pow_keeps_integer_dtype_and_rejects_negative_exponents():
    base, exponent = _ints((4,), low=-3, high=4), np.array([0, 1, 2, 3], np.int32)
    check_op(ag.pow, [base, exponent], np.power)
    check_op(ag.pow, [_floats((2, 2), low=0.5), _floats((2,))], np.power, rtol=1e-5)
    with pytest.raises(ValueError, match="Pow.*negative integer powers"):
        ag.pow(ag.constant(2), -1)


def test_integer_division_by_zero_raises_naming_the_op():
    with pytest.raises(ZeroDivisionError, match=r"FloorDiv: integer division by zero.*int32"):
        ag.floordiv(ag.constant([1, 2]), ag.constant([1, 0]))
    with pytest.raises(ZeroDivisionError, match="FloorMod"):
        ag.mod(ag.constant(5), 0)
    assert np.isinf(ag.divide(ag.constant(1.0), 0.0).numpy())  # floats: inf, silently


def test_python_scalars_take_the_tensor_dtype():
    assert ag.add(ag.constant([1.0, 2.0]), 1).dtype == ag.float32
    assert ag.multiply(2, ag.constant([1, 2], dtype=ag.int64)).dtype == ag.int64
    assert ag.add(ag.constant(np.float64(1)), 0.1).dtype == ag.float64


def test_mismatched_dtypes_name_both_dtypes_and_shapes():
    with pytest.raises(TypeError, match=r"add.*int32 \(shape \(2,\)\).*float32 \(shape \(\)\)"):
        ag.add(ag.constant([1, 2]), ag.constant(1.0))
    with pytest.raises(TypeError, match="int32"):
        ag.add(ag.constant([1, 2]), 2.5)  # 2.5 cannot become int32


def test_incompatible_shapes_name_op_and_shapes_in_both_modes():
    with pytest.raises(ValueError, match=r"Add.*\(2, 3\).*\(4,\)"):
        ag.add(ag.ones([2, 3]), ag.ones([4]))
    with Graph().as_default():
        with pytest.raises(ValueError, match=r"Add.*\(2, 3\).*\(4,\)"):
            ag.add(ag.placeholder(ag.float32, [2, 3]), ag.placeholder(ag.float32, [4]))


@pytest.mark.parametrize("fn", [ag.sqrt, ag.exp, ag.log, ag.tanh, ag.sigmoid])
def test_float_only_ops_reject_ints_in_both_modes(fn):
    with pytest.raises(TypeError, match="floating-point.*int32"):
        fn(ag.constant([1, 2]))
    with Graph().as_default(), pytest.raises(TypeError, match="floating-point.*int32"):
        fn(ag.placeholder(ag.int32, [None]))


def test_arithmetic_rejects_bools_and_logic_rejects_numbers():
    with pytest.raises(TypeError, match="Add.*numeric.*bool"):
        ag.add(ag.constant([True]), ag.constant([False]))
    with pytest.raises(TypeError, match="LogicalAnd.*bool.*int32"):
        ag.logical_and(ag.constant(1), ag.constant(0))


def test_equal_works_on_strings():
    result = ag.equal(ag.constant(["a", "b"]), ag.constant(["a", "c"]))
    assert result.numpy().tolist() == [True, False] and result.dtype == ag.bool


@pytest.mark.parametrize("shapes", [((2, 3), (3, 4)), ((5, 2, 3), (3, 1)),
                                    ((2, 1, 2, 3), (4, 3, 2))])
def test_matmul(shapes):
    check_op(ag.matmul, [_floats(shapes[0]), _floats(shapes[1])], np.matmul, rtol=1e-5)
    check_op(ag.matmul, [_ints(shapes[0]), _ints(shapes[1])], np.matmul)


def test_matmul_errors():
    with pytest.raises(ValueError, match="MatMul.*rank >= 2"):
        ag.matmul(ag.ones([3]), ag.ones([3, 2]))
    with pytest.raises(ValueError, match=r"MatMul.*\(2, 3\).*\(2, 3\)"):
        ag.matmul(ag.ones([2, 3]), ag.ones([2, 3]))
    with Graph().as_default(), pytest.raises(ValueError, match=r"inner dimensions.*\(2, 3\)"):
        ag.matmul(ag.placeholder(ag.float32, [None, 3]), ag.placeholder(ag.float32, [2, 3]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, width=32), min_size=1, max_size=6),
       st.sampled_from(["add", "subtract", "multiply", "maximum", "less"]))
def test_binary_ops_property(values, name):
    x = np.array(values, np.float32)
    y = x[::-1].copy()
    oracle = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
              "maximum": np.maximum, "less": np.less}[name]
    check_op(getattr(ag, name), [x, y], oracle, unknown_dims=False)
