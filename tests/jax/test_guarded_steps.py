"""A bounded loop differentiated by JAX folds its step guard into the `if` its body starts
with (runtime/xla/staging/guards.py): the values and gradients are Python's (`jax.grad`
of the plain function, which JAX runs with Python control flow on concrete values), and
no branch the stopped loop skips runs with a derivative that would turn into NaN."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph_py as ag


def break_branch_does_no_float_work(x):
    y = x
    for _ in range(12):
        if y < 0.5:
            break
        y = jnp.sqrt(y - 0.5)  # NaN, and an infinite derivative, once y < 0.5
    return y


def return_branch_does_no_float_work(x):
    y = x
    for _ in range(12):
        if y > 40.0:
            return y
        y = y * x
    return y * 3.0


def return_of_a_new_value(x):
    y = x
    for _ in range(12):
        if y > 40.0:
            return jnp.log(y - 40.0)  # what a stopped step must not differentiate
        y = y * x
    return y


def both_branches_do_float_work(x):
    y = x
    for _ in range(12):
        if y < 0.7:
            y = y * 3.0
            break
        else:
            y = jnp.sqrt(y - 0.7)
    return y


def float_work_outside_the_if(x):
    y = x
    for _ in range(12):
        y = jnp.sqrt(y)
        if y < 1.1:
            break
    return y


def assert_in_the_loop(x):
    y = x
    for _ in range(12):
        if y > 30.0:
            break
        assert y < 30.0, "y stays below 30 while the loop runs"
        y = y * x
    return y


def counter_and_flag_beside_the_if(x):
    y, steps = x, 0
    for i in range(12):
        if y > 50.0:
            break
        y = y * x + i
        steps += 1
    return y + steps


FUNCTIONS = (break_branch_does_no_float_work, return_branch_does_no_float_work,
             return_of_a_new_value, both_branches_do_float_work, float_work_outside_the_if,
             assert_in_the_loop, counter_and_flag_beside_the_if)
CASES = [(fn, x) for fn in FUNCTIONS for x in (1.3, 2.0, 7.5)]


@pytest.mark.parametrize("fn, x", CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_value_and_grad_match_python(fn, x):
    expected_value, expected_grad = jax.value_and_grad(fn)(jnp.float32(x))
    for transform in (jax.value_and_grad, lambda f: jax.jit(jax.value_and_grad(f))):
        value, grad = transform(ag.to_graph(fn))(jnp.float32(x))
        np.testing.assert_allclose(float(value), float(expected_value), rtol=1e-5)
        np.testing.assert_allclose(float(grad), float(expected_grad), rtol=1e-4)
        assert np.isfinite(float(grad))


def _step(fn):
    """The equations of the forward scan's step (at its top level)."""
    jaxpr = jax.make_jaxpr(jax.grad(ag.to_graph(fn)))(jnp.float32(2.0)).jaxpr
    scan = next(e for e in jaxpr.eqns if e.primitive.name == "scan")
    return scan.params["jaxpr"].jaxpr.eqns


def _step_conds(fn):
    """The branch counts of the conditionals at the top of the forward scan's step."""
    return [len(e.params["branches"]) for e in _step(fn) if e.primitive.name == "cond"]


def test_a_break_branch_takes_the_stopped_steps():
    assert _step_conds(break_branch_does_no_float_work) == [2]
    assert _step_conds(return_branch_does_no_float_work) == [2]


def test_branches_that_both_work_get_a_third_for_stopped_steps():
    assert _step_conds(both_branches_do_float_work) == [3]
    assert _step_conds(return_of_a_new_value) == [3]


def test_float_work_outside_the_if_keeps_the_step_under_a_cond():
    # One cond, the step's own, around the body (its sqrt and its if): nothing unguarded.
    assert _step_conds(float_work_outside_the_if) == [2]
    assert "sqrt" not in {e.primitive.name for e in _step(float_work_outside_the_if)}


def weighted_sum_until(w, xs):
    total = 0.0
    for x in xs:  # a for over an array's rows that a break may stop
        if total > 5.0:
            break
        total = total + w * jnp.sqrt(x)
    return total


@pytest.mark.parametrize("w", [0.2, 1.0, 3.0])
def test_a_for_over_an_array_with_a_break_under_grad(w):
    xs = jnp.asarray(np.linspace(0.5, 4.0, 9), jnp.float32)
    expected = jax.grad(weighted_sum_until)(jnp.float32(w), xs)
    got = jax.jit(jax.grad(ag.to_graph(weighted_sum_until)))(jnp.float32(w), xs)
    np.testing.assert_allclose(float(got), float(expected), rtol=1e-5)


def break_branch_with_a_loop(x):
    y, n = x, 3
    for _ in range(12):
        if y > 20.0:
            while n > 0:  # counts down from n: after the stop, n is 0 and nothing spins
                n = n - 1
            break
        y = y * x
        n = n + 1
    return y + n


def test_a_break_branch_that_loops_is_not_run_by_stopped_steps():
    assert _step_conds(break_branch_with_a_loop) == [3]
    for x in (1.3, 2.0, 7.5):
        expected_value, expected_grad = jax.value_and_grad(break_branch_with_a_loop)(
            jnp.float32(x))
        value, grad = jax.jit(jax.value_and_grad(ag.to_graph(break_branch_with_a_loop)))(
            jnp.float32(x))
        np.testing.assert_allclose(float(value), float(expected_value), rtol=1e-5)
        np.testing.assert_allclose(float(grad), float(expected_grad), rtol=1e-4)
