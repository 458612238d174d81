"""Python operators on tensors (eager and symbolic), TensorFlow 2 semantics."""

import contextlib
import operator

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.testing import assert_same_array, check_op

A = np.array([[1, -2], [3, 4]], np.int32)
B = np.array([[2, 5], [-3, 1]], np.int32)

ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
              operator.mod, operator.matmul, operator.lt, operator.le, operator.gt,
              operator.ge, operator.eq, operator.ne]


def _numpy_oracle(op):
    def oracle(x, y):
        result = op(x, y)
        return result if op is not operator.truediv else result.astype(np.float64)

    return oracle


@pytest.mark.parametrize("op", ARITHMETIC, ids=lambda o: o.__name__)
def test_binary_operators_between_tensors(op):
    check_op(op, [A, B], _numpy_oracle(op))


@pytest.mark.parametrize("op", ARITHMETIC[:6] + [operator.pow], ids=lambda o: o.__name__)
def test_operators_with_python_scalars_both_sides(op):
    x, positive = ag.constant(A), ag.constant(np.abs(A))
    assert_same_array(op(x, 3).numpy(), _numpy_oracle(op)(A, np.int32(3)))
    assert_same_array(op(7, positive).numpy(), _numpy_oracle(op)(np.int32(7), np.abs(A)))


def test_operators_with_numpy_arrays_on_the_left():
    x = ag.constant(B)
    result = A + x
    assert isinstance(result, ag.Tensor)
    assert_same_array(result.numpy(), A + B)


def test_unary_operators():
    x = ag.constant(A)
    assert_same_array((-x).numpy(), -A)
    assert +x is x
    assert_same_array(abs(x).numpy(), np.abs(A))
    check_op(lambda t: -t, [A.astype(np.float32)], np.negative)


def test_logical_operators_on_bools():
    p, q = np.array([True, False, True]), np.array([True, True, False])
    check_op(operator.and_, [p, q], np.logical_and)
    check_op(operator.or_, [p, q], np.logical_or)
    check_op(operator.xor, [p, q], np.logical_xor)
    check_op(operator.invert, [p], np.logical_not)
    assert (True & ag.constant(p)).numpy().tolist() == p.tolist()


def test_logical_operators_reject_ints_clearly():
    with pytest.raises(TypeError, match=r"operator & is a logical op on bool tensors; got a "
                                        r"int32 tensor of shape \(2, 2\)"):
        ag.constant(A) & 1
    with pytest.raises(TypeError, match="operator ~"):
        ~ag.constant(A)


def test_equality_is_elementwise_and_tensors_stay_hashable():
    x, y = ag.constant(A), ag.constant(A)
    assert (x == y).numpy().all() and (x == y).dtype == ag.bool
    assert {x: 1, y: 2}[x] == 1 and len({x, y}) == 2
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert (x == object()) is False
    with Graph().as_default():
        p = ag.placeholder(ag.float32, [None])
        assert (p == 1.0).shape == (None,) and {p: 1}[p] == 1


def test_operator_dtype_errors_name_dtypes():
    with pytest.raises(TypeError, match="add: both operands must have the same dtype, got "
                                        "int32.*float32"):
        ag.constant(A) + ag.constant(1.0)
    with pytest.raises(TypeError, match="cannot convert 1.5"):
        ag.constant(A) * 1.5
    with pytest.raises(TypeError):
        ag.constant(A) + object()


def test_seed_expressions():
    w = ag.constant([[1.0]])
    loss = w * w + 2. * w + 5.
    assert_same_array(loss.numpy(), np.array([[8.0]], np.float32))
    c = ag.constant([10, 12, 15, 20])
    assert [bool(v % 2 > 0) for v in c] == [False, False, True, False]
    assert (ag.constant(1) + ag.constant(1)).numpy() == 2
    assert ag.constant(1.1) + ag.constant(1.1) == ag.constant(np.float32(2.2))


def test_symbolic_operators_build_ops():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 2])
        y = (x * 2 + 1) / x ** 2 - x @ ag.ones([2, 2])
        assert y.shape == (None, 2) and y.dtype == ag.float32
        assert (x > 0).dtype == ag.bool and x[0].shape == (2,)


@pytest.mark.parametrize("text", ["abc", b"ab"])
@pytest.mark.parametrize("symbolic", [False, True])
def test_a_tensor_times_text_names_the_text(text, symbolic):
    # Issue 25, bug 9: `constant(1.0) * "abc"` said "only integer tensors can be used as an
    # index" (str.__rmul__ read the tensor as a repeat count).
    def make():
        if symbolic:
            return ag.placeholder(ag.float32, shape=())
        return ag.constant(1.0)

    with Graph().as_default() if symbolic else contextlib.nullcontext():
        with pytest.raises(TypeError, match=rf"unsupported operand type\(s\) for \*: "
                                            rf"'\w+Tensor' and '{type(text).__name__}'"):
            make() * text
