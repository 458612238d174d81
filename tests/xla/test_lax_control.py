"""`runtime/xla/lax_control` (the helpers other staging backends reuse): results as the
Python loop and branch they stand for, reverse mode through bounded loops (jax.grad
against finite differences), and a changing carry named by position."""

import jax
import numpy as np
import pytest
from autograph_py.runtime.xla import lax_control


def _python_while(x, limit):
    count = 0
    while x < 10.0 and count < limit:
        x = x * 1.7 + 0.3
        count += 1
    return x


def _bounded(x, limit):
    return lax_control.while_loop(lambda x: x < 10.0, lambda x: x * 1.7 + 0.3, x,
                                  maximum_iterations=limit)


@pytest.mark.parametrize("x, limit", [(0.5, 3), (0.5, 20), (20.0, 5)])
def test_bounded_while_is_the_python_loop_and_differentiable(x, limit):
    with jax.enable_x64(True):
        assert float(jax.jit(_bounded, static_argnums=1)(x, limit)) == \
            pytest.approx(_python_while(x, limit))
        grad = float(jax.grad(_bounded)(x, limit))
    eps = 1e-6
    expected = (_python_while(x + eps, limit) - _python_while(x - eps, limit)) / (2 * eps)
    assert grad == pytest.approx(expected, rel=1e-5)


def test_fori_loop_and_cond():
    with jax.enable_x64(True):
        total = lax_control.fori_loop(5, lambda i, s: s + i, np.int64(0))
        assert int(total) == sum(range(5))
        pick = jax.jit(lambda p: lax_control.cond(p, lambda c: c + 1, lambda c: c - 1, 10))
        assert int(pick(True)) == 11 and int(pick(False)) == 9


def test_a_carry_that_changes_shape_is_named_by_position():
    with pytest.raises(lax_control.CarryMismatch, match="carried value 1"):
        jax.jit(lambda n: lax_control.while_loop(
            lambda c: c[0] < n, lambda c: (c[0] + 1, np.zeros(3)), (0, np.zeros(2))))(3)
