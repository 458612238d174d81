"""einsum, reduce_logsumexp and norm against numpy, eagerly, in graphs and through
ag.function, with gradients against finite differences."""

import numpy as np
import pytest
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(21)


def normal(*shape):
    return rng.standard_normal(shape)


EINSUMS = {
    "matmul": ("ij,jk->ik", [(2, 3), (3, 4)]),
    "implicit output": ("ij,jk", [(2, 3), (3, 4)]),
    "transpose": ("ij->ji", [(2, 3)]),
    "sum over a label of one operand": ("ij,jk->k", [(2, 3), (3, 4)]),
    "outer product": ("i,j->ij", [(3,), (2,)]),
    "batch matmul with ...": ("...ij,...jk->...ik", [(2, 2, 3), (2, 3, 4)]),
    "broadcast ...": ("...ij,...jk->...ik", [(1, 2, 3), (4, 3, 2)]),
    "... of different lengths": ("...i,...i->...", [(3, 2, 4), (2, 4)]),
    "three operands": ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 2)]),
    "full contraction": ("ij,ij->", [(2, 3), (2, 3)]),
    "spaces and an empty ...": ("...j, j -> ...", [(3,), (3,)]),
}


@pytest.mark.parametrize("name", EINSUMS)
def test_einsum(name):
    equation, shapes = EINSUMS[name]
    arrays = [normal(*s).astype(np.float32) for s in shapes]
    check_modes(lambda *ts: ag.einsum(equation, *ts), arrays,
                lambda *a: np.einsum(equation, *a), rtol=1e-5)


@pytest.mark.parametrize("name", EINSUMS)
def test_einsum_gradient(name):
    equation, shapes = EINSUMS[name]
    check_gradients(lambda *ts: ag.einsum(equation, *ts), [normal(*s) for s in shapes])


def test_einsum_diagonal_runs_but_has_no_gradient():
    x = normal(3, 3)
    check_modes(lambda t: ag.einsum("ii->i", t), [x], lambda a: np.einsum("ii->i", a))
    with ag.GradientTape() as tape:
        t = ag.constant(x)
        tape.watch(t)
        y = ag.einsum("ii->i", t)
    with pytest.raises(ValueError, match=r"einsum: no gradient for operand 0 of 'ii->i'"):
        tape.gradient(y, t)


def test_einsum_errors():
    with pytest.raises(ValueError, match=r"Einsum: einsum equation 'ij,jk->ik': label 'j' "
                                         r"has sizes 3 and 2"):
        ag.einsum("ij,jk->ik", ag.zeros([2, 3]), ag.zeros([2, 2]))
    with pytest.raises(ValueError, match="has 2 input terms but 1 operands"):
        ag.einsum("ij,jk->ik", ag.zeros([2, 3]))
    with pytest.raises(ValueError, match="output label 'z' does not appear"):
        ag.einsum("ij->z", ag.zeros([2, 3]))
    with pytest.raises(ValueError, match="term 'ijk' has 3 labels but its operand has rank 2"):
        ag.einsum("ijk->i", ag.zeros([2, 3]))
    with pytest.raises(ValueError, match=r"the output must hold '...'"):
        ag.einsum("...j->j", ag.zeros([2, 3]))
    with pytest.raises(TypeError, match="einsum: all tensors must have the same dtype"):
        ag.einsum("i,i->", ag.zeros([2]), ag.zeros([2], ag.float64))
    with ag.Graph().as_default():  # the shape rule rejects what the kernel rejects
        with pytest.raises(ValueError, match="label 'j' has sizes 3 and 2"):
            ag.einsum("ij,jk->ik", ag.placeholder(ag.float32, [None, 3]),
                      ag.placeholder(ag.float32, [2, None]))


def _logsumexp(a, axis=None, keepdims=False):
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    total = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    return total if keepdims else np.squeeze(total, axis=axis)


@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, False), ([0, 2], True),
                                            (-1, True)])
def test_reduce_logsumexp(axis, keepdims):
    x = (normal(2, 3, 4) * 300).astype(np.float32)  # large: exp would overflow unshifted
    axis_arg = tuple(axis) if isinstance(axis, list) else axis
    check_modes(lambda t: ag.reduce_logsumexp(t, axis, keepdims), [x],
                lambda a: _logsumexp(a.astype(np.float64), axis_arg, keepdims).astype(
                    np.float32), rtol=1e-5)


def test_reduce_logsumexp_of_infinities():
    x = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [0.0, 0.0]], np.float32)
    expected = np.array([-np.inf, np.inf, np.log(2.0)], np.float32)
    check_modes(lambda t: ag.math.reduce_logsumexp(t, axis=1), [x], lambda a: expected)


def test_reduce_logsumexp_gradient():
    check_gradients(lambda t: ag.reduce_logsumexp(t, axis=1), [normal(3, 4)])
    check_gradients(lambda t: ag.reduce_logsumexp(t), [normal(2, 3)])


VECTOR_ORDS = ["euclidean", "fro", 1, 2, np.inf, 3, 0.5]


@pytest.mark.parametrize("ord", VECTOR_ORDS)
@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, True), (-1, False)])
def test_vector_norm(ord, axis, keepdims):
    x = normal(3, 4).astype(np.float32)

    def oracle(a):
        flat = a.reshape(-1) if axis is None else a
        p = 2 if ord in ("euclidean", "fro") else ord
        result = np.linalg.norm(flat.astype(np.float64), ord=p, axis=axis, keepdims=keepdims)
        if axis is None and keepdims:
            result = result.reshape(1, 1)
        return np.asarray(result, np.float32)

    check_modes(lambda t: ag.norm(t, ord, axis, keepdims), [x], oracle, rtol=1e-5)


@pytest.mark.parametrize("ord", ["fro", 1, np.inf])
@pytest.mark.parametrize("axis", [(0, 1), (2, 1)])
def test_matrix_norm(ord, axis):
    x = normal(2, 3, 4).astype(np.float32)

    def oracle(a):
        moved = np.moveaxis(a, axis, (-2, -1))
        return np.linalg.norm(moved.astype(np.float64), ord=ord, axis=(-2, -1)).astype(
            np.float32)

    check_modes(lambda t: ag.norm(t, ord, list(axis)), [x], oracle, rtol=1e-5)


@pytest.mark.parametrize("ord", ["euclidean", 1, np.inf, 3])
def test_norm_gradient(ord):
    x = rng.choice([-1.0, 1.0], (3, 4)) * rng.uniform(0.5, 2.0, (3, 4))
    x[0, 1] += 5.0  # a clear maximum for the inf norm
    check_gradients(lambda t: ag.norm(t, ord, axis=1), [x])
    check_gradients(lambda t: ag.norm(t, ord if ord != 3 else "fro", axis=[0, 1]), [x])


def test_norm_errors():
    with pytest.raises(ValueError, match="the matrix 2-norm .* is not supported"):
        ag.norm(ag.ones([2, 2]), 2, axis=[0, 1])
    with pytest.raises(ValueError, match="a vector norm's ord must be"):
        ag.norm(ag.ones([2]), -1)
    with pytest.raises(ValueError, match="the two axes must differ"):
        ag.norm(ag.ones([2, 2]), axis=[1, -1])
    with pytest.raises(TypeError, match="inputs must be floating-point"):
        ag.norm(ag.constant([1, 2]))
