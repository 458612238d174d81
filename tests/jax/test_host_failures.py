"""A check that fails when a compiled JAX program runs (a failed `assert`, a variable read
after a loop that never assigned it) raises, under `ag.jax.jit` / `ag.jax.grad`, the
error the code as written raises (its type, the user's message) naming the user's
file:line, with no JAX context chained; under JAX's own `jax.jit(ag.to_graph(f))`, JAX's
runtime error quotes that message; and nothing is printed to stderr either way."""

import inspect
import logging
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import pytest
from autograph_py.runtime.xla import jax_internals

import autograph_py as ag


def positive_double(x):
    assert x > 0, "x must be positive"
    return x * 2


def checked_in_a_branch(x):
    y = x
    if x > 0:
        assert x < 5, "x too large"
        y = x * x
    return y


def last_index(n):
    i = 0
    while i < n:
        last = i
        i += 1
    return last


def _where(fn, text):
    """`file:line` of the first line of `fn` holding `text`."""
    lines, first = inspect.getsourcelines(fn)
    offset = next(i for i, line in enumerate(lines) if text in line)
    return f"{inspect.getsourcefile(fn)}:{first + offset}"


def _python_error(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    return info.value


def test_a_failed_assert_under_ag_jax_jit_is_the_users_assertion_error():
    jitted = ag.jax.jit(positive_double)
    assert float(jitted(3.0)) == positive_double(3.0)
    expected = _python_error(positive_double, -1.0)  # the oracle: Python's own assert
    with pytest.raises(type(expected)) as info:
        jitted(jnp.float32(-1.0))
    error = info.value
    assert type(error) is AssertionError
    message = str(error)
    # (pytest's assertion rewriting adds its explanation to Python's message: line 1 is ours)
    assert str(expected).splitlines()[0] in message and "(x > 0)" in message
    assert _where(positive_double, "assert x > 0") in message
    assert error.__cause__ is None and error.__context__ is None
    assert "JaxRuntimeError" not in message and "Traceback" not in message


def test_an_assert_in_a_staged_branch_names_its_line_under_jit_and_grad():
    where = _where(checked_in_a_branch, "assert x < 5")

    def slope(x, h=1e-3):  # the oracle of the gradient: a central difference
        return (checked_in_a_branch(x + h) - checked_in_a_branch(x - h)) / (2 * h)

    for transformed, oracle in ((ag.jax.jit(checked_in_a_branch), checked_in_a_branch),
                                (ag.jax.jit(jax.grad(ag.to_graph(checked_in_a_branch))),
                                 slope)):
        for x in (-2.0, 2.0):
            assert float(transformed(jnp.float32(x))) == pytest.approx(oracle(x), rel=1e-3)
        with pytest.raises(AssertionError, match="x too large") as info:
            transformed(jnp.float32(7.0))
        assert where in str(info.value)
    # jax.grad evaluates as it goes: the `if` runs as Python there, the assert too.
    with pytest.raises(AssertionError, match="x too large") as info:
        ag.jax.grad(checked_in_a_branch)(7.0)
    assert float(ag.jax.grad(checked_in_a_branch)(2.0)) == pytest.approx(slope(2.0), rel=1e-3)


def test_a_read_after_a_loop_that_never_ran_is_the_users_unbound_local_error():
    jitted = ag.jax.jit(last_index)
    assert int(jitted(4)) == last_index(4)
    expected = _python_error(last_index, 0)
    with pytest.raises(type(expected)) as info:
        jitted(0)
    assert type(info.value) is UnboundLocalError
    assert "'last'" in str(info.value)
    assert _where(last_index, "while i < n") in str(info.value)


def test_jax_own_jit_keeps_its_error_which_quotes_the_message_and_line():
    jitted = jax.jit(ag.to_graph(positive_double))
    with pytest.raises(jax.errors.JaxRuntimeError) as info:
        jitted(-1.0)
    assert "Assertion failed: x must be positive (x > 0)" in str(info.value)
    assert _where(positive_double, "assert x > 0") in str(info.value)


def _callback_records(caplog):
    return [r for r in caplog.records
            if r.name in jax_internals.CALLBACK_LOGGERS and r.exc_info]


def test_our_failures_are_not_logged_and_other_callback_failures_still_are(caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(AssertionError):
        ag.jax.jit(positive_double)(-1.0)
    with pytest.raises(jax.errors.JaxRuntimeError):
        jax.jit(ag.to_graph(positive_double))(-1.0)
    with pytest.raises(UnboundLocalError):
        ag.jax.jit(last_index)(0)
    assert _callback_records(caplog) == []

    def broken(x):
        raise ValueError("a callback of the user's own")

    with pytest.raises(jax.errors.JaxRuntimeError):
        jax.jit(lambda x: jax.debug.callback(broken, x, ordered=True))(1.0)
    assert len(_callback_records(caplog)) == 1  # JAX's own report stands


def test_stderr_stays_clean_when_a_compiled_assert_fails(tmp_path):
    script = tmp_path / "asserting.py"  # a file: the converter reads the function's source
    source = textwrap.dedent("""
        import jax
        import autograph_py as ag

        def positive(x):
            assert x > 0, "x must be positive"
            return x

        for call in (ag.jax.jit(positive), jax.jit(ag.to_graph(positive))):
            try:
                call(-1.0)
            except Exception as e:
                print(type(e).__name__, str(e).splitlines()[-1].strip())
    """)
    script.write_text(source)
    line = 1 + next(i for i, text in enumerate(source.splitlines()) if "assert x" in text)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, check=True)
    assert done.stderr == ""
    where = f"{script}:{line}"
    assert done.stdout.splitlines() == [f"AssertionError (assert at {where})",
                                        f"JaxRuntimeError (assert at {where})"]


def test_the_wrapper_keeps_jax_attributes_and_names():
    jitted = ag.jax.jit(positive_double)
    assert jitted.__name__ == "positive_double"
    assert jitted.__doc__ == jax.jit(ag.to_graph(positive_double)).__doc__
    assert "positive_double" in jitted.lower(1.0).as_text()
    assert float(jax.vmap(jitted)(jnp.array([1.0, 2.0])).sum()) == 6.0
