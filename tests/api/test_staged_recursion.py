"""A converted function that recurses inside a statement staged on a tensor cannot end
while tracing (issue 25, bug 13): the error is one short RecursionError naming the
function, the recursive call's and the staged statement's file:line, and the fix, with
no chained context repeating the recursion. A recursion that Python values bound, on
Python values or eager tensors, deep or not, keeps working (and, past Python's limit,
keeps Python's own error)."""

import inspect
import sys
import traceback

import pytest

import autograph_py as ag
from autograph_py import config
from autograph_py.recursion import StagedRecursionError


def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def total(n):
    return n * 0 if n <= 0 else n + total(n - 1)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def grows(x, depth):
    """Recursion on a Python int, over a symbolic tensor: it ends while tracing."""
    if depth == 0:
        return x
    return grows(x * 1.01, depth - 1) + 1.0


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _where(fn, text):
    return f"{inspect.getsourcefile(fn)}:{_line(fn, text)}"


def _in_a_graph(fn, dtype):
    with ag.Graph().as_default():
        fn(ag.placeholder(dtype, shape=()))


def _traced_by_function(fn, dtype):
    ag.function(fn)(ag.constant(5, dtype=dtype))


def _check_short(error, name, definition, call, statement):
    message = str(error)
    assert isinstance(error, RecursionError)
    assert f"{name} (defined at {definition})" in message
    assert f"the call at {call}" in message and f"staged at {statement}" in message
    words = " ".join(message.split())
    assert f"Write {name} as a loop" in words and "recurse on Python values" in words
    assert error.__cause__ is None and error.__context__ is None
    assert not getattr(error, "__notes__", None)
    printed = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    assert len(printed.splitlines()) < 60  # Python's own: over 2,000 lines


@pytest.mark.parametrize("run", [_in_a_graph, _traced_by_function],
                         ids=["graph", "function"])
def test_recursion_under_a_tensor_if_is_one_short_error(run):
    with pytest.raises(StagedRecursionError) as info:
        run(ag.to_graph(factorial), ag.int32)
    _check_short(info.value, "factorial", _where(factorial, "def factorial"),
                 _where(factorial, "factorial(n - 1)"), _where(factorial, "if n <= 1"))


@pytest.mark.parametrize("run", [_in_a_graph, _traced_by_function],
                         ids=["graph", "function"])
def test_recursion_under_a_tensor_ternary_is_one_short_error(run):
    with pytest.raises(StagedRecursionError) as info:
        run(ag.to_graph(total), ag.int32)
    where = _where(total, "n * 0 if")
    _check_short(info.value, "total", _where(total, "def total"), where, where)


def test_mutual_recursion_names_the_call_that_closes_the_cycle():
    with pytest.raises(StagedRecursionError) as info:
        _traced_by_function(is_even, ag.int32)
    _check_short(info.value, "is_even", _where(is_even, "def is_even"),
                 _where(is_odd, "is_even(n - 1)"), _where(is_even, "if n == 0"))


@ag.function
def decorated_factorial(n):
    if n <= 1:
        return 1
    return n * decorated_factorial(n - 1)


def test_an_ag_function_calling_itself_by_name():
    # Each level is an inlined ag.function call with a wrapper of its own: the innermost
    # ones, near the limit, cannot look; an outer one does, and the outermost reports.
    with pytest.raises(StagedRecursionError) as info:
        decorated_factorial(ag.constant(5))
    _check_short(info.value, "decorated_factorial",
                 _where(decorated_factorial.python_function, "def decorated_factorial"),
                 _where(decorated_factorial.python_function, "decorated_factorial(n - 1)"),
                 _where(decorated_factorial.python_function, "if n <= 1"))


def test_recursion_on_python_values_and_eager_tensors_keeps_working():
    for fn, args, expected in (
            (factorial, (10,), 3628800), (total, (100,), 5050), (is_even, (31,), False)):
        assert ag.to_graph(fn)(*args) == fn(*args) == expected
        assert int(ag.to_graph(fn)(*[ag.constant(a) for a in args])) == int(expected)
    assert int(ag.to_graph(total)(ag.constant(200))) == total(200)


def test_deep_recursion_on_python_values_goes_as_deep_as_python_on_the_fast_path():
    # Deep but finite: on the fast path Python values run as written, as deep as Python
    # itself goes (with it off, each level costs more frames: docs/limitations.md).
    previous = config.set_fast_path(True)
    try:
        depth = sys.getrecursionlimit() - 100
        assert ag.to_graph(total)(depth) == total(depth) == depth * (depth + 1) // 2
    finally:
        config.set_fast_path(previous)


def test_recursion_bounded_by_python_values_over_symbolic_tensors_traces():
    assert float(ag.function(grows)(ag.constant(1.0), 150)) == pytest.approx(
        grows(1.0, 150), rel=1e-4)
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        out = ag.to_graph(grows)(x, 20)
        with ag.Session() as sess:
            assert sess.run(out, {x: 1.0}) == pytest.approx(grows(1.0, 20), rel=1e-5)


def test_past_the_limit_a_python_bounded_recursion_keeps_pythons_error():
    # Converted code costs more frames per level than the original (docs/limitations.md):
    # a recursion that ends, but only past the limit, is not called endless.
    with pytest.raises(RecursionError) as info:
        ag.function(grows)(ag.constant(1.0), sys.getrecursionlimit())
    assert type(info.value) is RecursionError


def test_recursion_on_a_jax_tracer_is_the_same_short_error():
    import jax  # noqa: PLC0415  (the [xla] extra, which the test environment installs)

    for jitted in (ag.jax.jit(factorial), jax.jit(ag.to_graph(factorial))):
        with pytest.raises(StagedRecursionError) as info:
            jitted(5)
        message = str(info.value)
        assert f"the call at {_where(factorial, 'factorial(n - 1)')}" in message
        assert f"staged at {_where(factorial, 'if n <= 1')}" in message
    assert int(ag.jax.jit(factorial, static_argnums=0)(5)) == factorial(5)
