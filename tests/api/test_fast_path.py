"""The fast path (autograph_py/fast_path.py, DESIGN.md §5): a converted function whose call
stages nothing runs as written; every other call runs the converted code.

Which code ran is read from the running frame: `ran()` returns the code object of the
function that called it, the original's own code on the fast path, the converted copy's
elsewhere. Each case sets the fast path explicitly, so the tests mean the same in both
settings of AUTOGRAPH_FAST_PATH.
"""

import functools
import inspect
import os
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph_py as ag
from autograph_py import config, fast_path


@pytest.fixture(autouse=True)
def fast_path_on(monkeypatch):
    monkeypatch.setattr(config, "_fast_path", True)


def ran():
    return sys._getframe(1).f_code


def which(x, scale=2):
    """Which code ran, and the value: an `if` over `x`, so a symbolic `x` stages."""
    if x > 0:
        x = x * scale
    return ran(), x


CONVERTED = ag.to_graph(which)


def as_written(code):
    return code is which.__code__


def test_plain_values_run_as_written():
    code, value = CONVERTED(3)
    assert as_written(code) and value == 6
    code, value = CONVERTED(x=-1, scale=5)
    assert as_written(code) and value == -1


def test_eager_tensors_and_variables_run_converted():
    # Nothing stages them, but converted code gives them TensorFlow's rules.
    code, value = CONVERTED(ag.constant(3.0))
    assert not as_written(code) and value.numpy() == 6.0
    code, value = CONVERTED(1.0, scale=ag.Variable(4.0))
    assert not as_written(code) and value.numpy() == 4.0


def checks(xs):
    assert xs > 0
    return xs


def test_an_eager_assert_follows_tensorflows_rule():
    with pytest.raises(ValueError, match="assert: the condition must be a scalar"):
        ag.to_graph(checks)(ag.constant([1, 2]))


def test_numpy_values_run_as_written():
    code, value = CONVERTED(np.float32(3.0))
    assert as_written(code) and value == 6.0


def test_a_symbolic_argument_runs_converted_even_with_no_graph_being_built():
    graph = ag.Graph()
    with graph.as_default():
        x = ag.placeholder(ag.float32, shape=())
    code, value = CONVERTED(x)  # outside `as_default()`: only the argument says so
    assert not as_written(code)
    with ag.Session(graph=graph) as sess:
        assert sess.run(value, {x: 3.0}) == 6.0


def test_a_symbolic_keyword_argument_runs_converted():
    graph = ag.Graph()
    with graph.as_default():
        scale = ag.placeholder(ag.float32, shape=())
    code, _ = CONVERTED(1.0, scale=scale)
    assert not as_written(code)


def test_plain_values_inside_a_graph_run_converted():
    with ag.Graph().as_default():
        code, value = CONVERTED(3)
    assert not as_written(code) and value == 6


def test_an_ag_function_trace_runs_converted():
    seen = None

    def traced(x):
        nonlocal seen
        seen, value = CONVERTED(x)
        return value

    assert ag.function(traced)(ag.constant(3.0)).numpy() == 6.0
    assert seen is not None and not as_written(seen)


def test_jax_jit_with_tracer_arguments_runs_converted():
    seen = []

    def traced(x):
        code, value = CONVERTED(x)
        seen.append(code)
        return value

    assert float(jax.jit(traced)(jnp.float32(3.0))) == 6.0
    assert not as_written(seen[0])


def test_an_active_jax_trace_runs_converted_with_plain_arguments():
    seen = []

    def traced(x):
        code, value = CONVERTED(1, scale=x)  # the tracer reaches it as `scale`...
        seen.append(code)
        code, _ = CONVERTED(1)  # ...and here through nothing: the trace says so
        seen.append(code)
        return value

    assert float(jax.jit(traced)(jnp.float32(3.0))) == 3.0
    assert not any(as_written(code) for code in seen)
    assert as_written(CONVERTED(1)[0])  # after the trace, as written again


def test_switched_off_runs_converted(monkeypatch):
    monkeypatch.setattr(config, "_fast_path", False)
    assert not config.fast_path_enabled()
    code, value = CONVERTED(3)
    assert not as_written(code) and value == 6


def test_set_fast_path_returns_the_previous_setting():
    assert config.set_fast_path(False) is True
    try:
        assert not as_written(CONVERTED(3)[0])
    finally:
        assert config.set_fast_path(True) is False
    assert as_written(CONVERTED(3)[0])


@pytest.mark.parametrize("value, enabled", [("0", False), ("false", False), ("off", False),
                                            ("1", True), ("", True)])
def test_the_environment_variable_sets_the_default(value, enabled):
    env = {**os.environ, "AUTOGRAPH_FAST_PATH": value}
    out = subprocess.run([sys.executable, "-c", "from autograph_py import config; "
                          "print(config.fast_path_enabled())"], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == str(enabled)


# --- the user's helpers, called by converted code ---------------------------------------

def helper(n):
    return ran(), n + 1


def calls_helper(x, n):
    if x > 0:
        x = x + 1
    return x, helper(n)


def test_a_helper_called_with_plain_values_from_staging_code_runs_as_written():
    graph = ag.Graph()
    with graph.as_default():
        x = ag.placeholder(ag.float32, shape=())
    # Outside `as_default()`, the symbolic `x` makes `calls_helper` stage; `helper(2)`
    # stages nothing.
    _, (code, value) = ag.to_graph(calls_helper)(x, 2)
    assert code is helper.__code__ and value == 3
    with graph.as_default():
        _, (code, _) = ag.to_graph(calls_helper)(x, 2)
    assert code is not helper.__code__


# --- what the dispatching function keeps of the original --------------------------------

def signature_zoo(a, b=2, /, c=3, *rest, d, e=5, **more):
    """Every kind of parameter."""
    return ran(), (a, b, c, rest, d, e, more)


def test_metadata_and_signature_are_the_originals():
    converted = ag.to_graph(signature_zoo)
    assert converted.__name__ == "signature_zoo"
    assert converted.__qualname__ == "signature_zoo"
    assert converted.__doc__ == "Every kind of parameter."
    assert converted.__module__ == __name__
    assert converted.__wrapped__ is signature_zoo
    assert inspect.signature(converted) == inspect.signature(signature_zoo)


@pytest.mark.parametrize("enabled", [True, False])
def test_every_kind_of_argument_reaches_the_function(enabled, monkeypatch):
    monkeypatch.setattr(config, "_fast_path", enabled)
    converted = ag.to_graph(signature_zoo)
    for args, kwargs in (((1,), {"d": 4}), ((1, 2, 3, 4, 5), {"d": 6, "e": 7, "f": 8})):
        code, got = converted(*args, **kwargs)
        assert got == signature_zoo(*args, **kwargs)[1]
        assert (code is signature_zoo.__code__) == enabled


def test_a_wrong_call_fails_as_the_originals_would():
    with pytest.raises(TypeError) as original:
        signature_zoo(1)
    with pytest.raises(TypeError) as converted:
        ag.to_graph(signature_zoo)(1)
    assert str(converted.value) == str(original.value)


def test_a_parameter_named_like_the_dispatchers_own_names_works():
    def f(ag__original, *ag__args):
        return ran(), ag__original + sum(ag__args)

    code, value = ag.to_graph(f)(1, 2, 3)
    assert code is f.__code__ and value == 6
    assert inspect.signature(ag.to_graph(f)) == inspect.signature(f)


class Base:
    def step(self, x):
        return x + 1


class Child(Base):
    def step(self, x):
        x = super().step(x)
        if x > 0:
            x = x * 2
        return ran(), x


@pytest.mark.parametrize("enabled", [True, False])
def test_methods_with_super(enabled, monkeypatch):
    monkeypatch.setattr(config, "_fast_path", enabled)
    bound = ag.to_graph(Child().step)
    code, value = bound(3)
    assert value == 8 and (code is Child.step.__code__) == enabled

    class Again(Child):  # the dispatching function found on a class is a method
        step = ag.to_graph(Child.step)

    code, value = Again().step(3)
    assert value == 8 and (code is Child.step.__code__) == enabled


def test_is_marked_converted():
    assert ag.to_graph(CONVERTED) is CONVERTED
    assert ag.converted_call(CONVERTED, 3)[1] == 6
    assert fast_path.dispatch(which, which).__ag_converted__


def test_functools_partial_of_the_dispatching_function():
    code, value = functools.partial(CONVERTED, scale=10)(2)
    assert as_written(code) and value == 20


def test_parameters_named_like_the_builtins_the_dispatch_calls():
    """Real code names parameters `type` (`__exit__(self, type, value, traceback)`): the
    dispatching function must not call the caller's argument (realcode triage FP1)."""
    def f(x, type=None, map=None, *rest, **options):
        if x > 0:
            return (x, type, map, rest, options)
        return None

    converted = ag.to_graph(f)
    assert converted(1) == f(1) == (1, None, None, (), {})
    assert converted(2, "t", "m", 3, k=4) == f(2, "t", "m", 3, k=4)


def test_the_first_import_of_jax_forgets_the_types_found_plain(monkeypatch):
    # Once jax is imported a JAX trace may call a converted function on plain values:
    # the first line of a converted module's function must then ask `stages` each time.
    from autograph_py.runtime import context

    from autograph_py import fast_path
    monkeypatch.setattr(fast_path, "_jax_seen", [False])
    context.idle_plain.add(int)
    assert fast_path._ForgetPlainOnJaxImport().find_spec("jax") is None
    assert fast_path._jax_seen == [True] and not context.idle_plain
    assert not fast_path._may_remember()


def test_registering_a_backend_forgets_the_types_found_plain(monkeypatch):
    # A new backend may claim values of a type found plain before it: the first line of a
    # converted module's function must ask `stages` again.
    from autograph_py.runtime import context
    from autograph_py.runtime.operators import backends
    monkeypatch.setattr(backends, "_ROWS", list(backends._ROWS))
    context.idle_plain.add(int)
    backends.register("test-only", lambda cls: False, lambda value: False, lambda: None)
    assert not context.idle_plain and int not in backends.PLAIN
