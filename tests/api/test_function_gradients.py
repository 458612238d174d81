"""A gradient tape sees a call of an `ag.function` (run as one Call op), and gives the
same gradient as the plain eager computation and as finite differences."""

import numpy as np

import autograph_py as ag


def loss_fn(w, x):
    if ag.reduce_sum(x) > 0:
        y = w * x
    else:
        y = w * w * x
    return ag.reduce_sum(y * y)


W = ag.Variable([0.0, 0.0])


def _grad(fn, w_value, x_value):
    w = W
    w.assign(w_value)
    x = ag.constant(x_value)
    with ag.GradientTape() as tape:
        loss = fn(w, x)
    return tape.gradient(loss, w).numpy()


def _finite_difference(w_value, x_value, eps=1e-3):
    w = np.asarray(w_value, np.float64)
    x = np.asarray(x_value, np.float64)

    def f(w):
        y = w * x if x.sum() > 0 else w * w * x
        return (y * y).sum()

    grad = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        step = np.zeros_like(w)
        step[i] = eps
        grad[i] = (f(w + step) - f(w - step)) / (2 * eps)
    return grad


def test_tape_through_function_matches_eager_and_finite_differences():
    traced = ag.function(loss_fn)
    for x_value in ([1.0, 2.0], [-1.0, -3.0]):
        w_value = [0.5, -1.5]
        eager = _grad(ag.to_graph(loss_fn), w_value, x_value)
        through_function = _grad(traced, w_value, x_value)
        np.testing.assert_allclose(through_function, eager, rtol=1e-5)
        np.testing.assert_allclose(through_function, _finite_difference(w_value, x_value),
                                   rtol=1e-2)
    assert traced.trace_count == 1  # a Variable argument is keyed by identity
