"""Where a function has a kink or an edge, the derivative a compiled call's gradient takes
is the gradient rule's of the numpy runtime (TensorFlow's conventions), not the one JAX
would pick: Relu has slope 0 at 0, Abs slope sign(x) (0 at 0), Maximum and Minimum give a
tie's whole gradient to their first input (JAX splits it), and Pow gives its exponent no
gradient where the base is not positive (JAX gives nan). Prod's gradient is the product
of the other elements, exact where some are 0 (TensorFlow's rule; no division). The
oracle is the same function on the numpy runtime; both are also checked against the
convention written out by hand."""

import numpy as np
import pytest

import autograph_py as ag

X = np.array([-1.5, 0.0, 0.0, 2.0, 3.0])
Y = np.array([0.0, 0.0, 1.0, 2.0, -1.0])  # ties with X at positions 1 and 3
BASE = np.array([-2.0, 0.0, 0.5, 2.0, -3.0])
EXPONENT = np.array([2.0, 3.0, 1.5, -1.0, 3.0])


def relu_loss(x, y):
    return ag.reduce_sum(ag.nn.relu(x) * ag.constant([1.0, 2.0, 3.0, 4.0, 5.0], ag.float64))


def maximum_loss(x, y):
    return ag.reduce_sum(ag.maximum(x, y) * ag.constant([1.0, 2.0, 3.0, 4.0, 5.0], ag.float64))


def minimum_loss(x, y):
    return ag.reduce_sum(ag.minimum(x, y) * ag.constant([1.0, 2.0, 3.0, 4.0, 5.0], ag.float64))


def pow_loss(x, y):
    return ag.reduce_sum(x ** y)


def abs_loss(x, y):
    return ag.reduce_sum(ag.abs(x) * ag.constant([1.0, 2.0, 3.0, 4.0, 5.0], ag.float64))


def prod_loss(x, y):
    return ag.reduce_prod(x) + ag.reduce_sum(ag.reduce_prod(ag.reshape(y, (5, 1)) * x, axis=1))


SCALE = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
# The conventions, written out: d/dx, d/dy.
EXPECTED = {
    relu_loss: (lambda x, y: SCALE * (x > 0), lambda x, y: None),
    maximum_loss: (lambda x, y: SCALE * (x >= y), lambda x, y: SCALE * (x < y)),
    minimum_loss: (lambda x, y: SCALE * (x <= y), lambda x, y: SCALE * (x > y)),
    pow_loss: (lambda x, y: y * x ** (y - 1),
               lambda x, y: np.where(x > 0, x ** y * np.log(np.where(x > 0, x, 1.0)), 0.0)),
    abs_loss: (lambda x, y: SCALE * np.sign(x), lambda x, y: None),
    # The product of the others, also where x has zeros (no division: not nan).
    prod_loss: (lambda x, y: _others(x) + (y[:, None] * _others(y[:, None] * x)).sum(0),
                lambda x, y: (x * _others(y[:, None] * x)).sum(1)),
}
INPUTS = {relu_loss: (X, Y), maximum_loss: (X, Y), minimum_loss: (X, Y),
          pow_loss: (BASE, EXPONENT), abs_loss: (X, Y), prod_loss: (BASE, EXPONENT)}  # one 0


def _others(a):
    """For each element of each row of `a` (1-D: the only row), the product of the
    others in its row."""
    rows = np.atleast_2d(a)
    found = np.array([[np.prod(np.delete(row, j)) for j in range(row.size)] for row in rows])
    return found.reshape(a.shape)


def _gradients(fn, jit, x, y):
    f = ag.function(fn, jit_compile=jit)
    tx, ty = ag.constant(x), ag.constant(y)
    with ag.GradientTape() as tape:
        tape.watch([tx, ty])
        loss = f(tx, ty)
    return [None if g is None else g.numpy() for g in tape.gradient(loss, [tx, ty])]


@pytest.mark.parametrize("fn", list(EXPECTED), ids=lambda fn: fn.__name__)
def test_compiled_gradients_follow_the_numpy_runtimes_conventions(fn):
    x, y = INPUTS[fn]
    numpy_runtime = _gradients(fn, False, x, y)
    compiled = _gradients(fn, True, x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        by_hand = [rule(x, y) for rule in EXPECTED[fn]]
    for expected, ours, theirs in zip(by_hand, numpy_runtime, compiled):
        if expected is None:
            assert ours is None and theirs is None
        else:
            np.testing.assert_allclose(ours, expected, rtol=1e-12)
            np.testing.assert_allclose(theirs, expected, rtol=1e-12)
