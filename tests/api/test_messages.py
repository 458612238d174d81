"""Error notes point at the user's code only: the function names in the note are the
user's (`in f`), never a converter-made body (`if_body`, `loop_body`), in every mode."""

import inspect

import numpy as np
import pytest

import autograph_py as ag

_CONVERTER_NAMES = ("if_body", "else_body", "loop_body", "loop_test", "retval_", "break_")


def _adds_text_in_branches(x, n):
    i = 0
    while i < n:
        if x > 0:
            x = x + "text"
        i += 1
    return x


def _note(run):
    with pytest.raises(TypeError) as info:
        run()
    return "\n".join(getattr(info.value, "__notes__", []))


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@pytest.mark.usefixtures("converted_path")  # eager: the converted code's notes
@pytest.mark.parametrize("mode", ["eager", "graph", "function"])
def test_notes_name_the_users_function_not_converter_bodies(mode):
    converted = ag.to_graph(_adds_text_in_branches)
    if mode == "eager":
        note = _note(lambda: converted(ag.constant(1.0), ag.constant(2)))
    elif mode == "function":
        note = _note(lambda: ag.function(_adds_text_in_branches)(ag.constant(1.0),
                                                                 ag.constant(2)))
    else:
        with ag.Graph().as_default():
            x, n = ag.placeholder(ag.float32, ()), ag.placeholder(ag.int32, ())
            note = _note(lambda: converted(x, n))
    with pytest.raises(TypeError):  # the oracle: plain Python fails on that line too
        _adds_text_in_branches(1.0, 2)
    line = _line_of(_adds_text_in_branches, '"text"')
    assert f'File "{__file__}", line {line}, in _adds_text_in_branches' in note
    assert not any(name in note for name in _CONVERTER_NAMES), note


def test_a_users_nested_function_keeps_its_name():
    def outer(x):
        def inner(y):
            if y > 0:
                y = y + "text"
            return y
        return inner(x)

    note = _note(lambda: ag.function(outer)(ag.constant(1.0)))
    assert f"line {_line_of(outer, chr(34) + 'text')}, in inner" in note
    assert "in outer" in note and not any(name in note for name in _CONVERTER_NAMES), note


def _positive(x):
    assert x > 0, "x must be positive"
    return x


def _positive_without_message(x):
    assert x > 0
    return x


@pytest.mark.parametrize("fn, condition", [(_positive, "x > 0"),
                                           (_positive_without_message, "x > 0")])
@pytest.mark.usefixtures("converted_path")  # as written, pytest rewrites the assert
def test_a_staged_assert_quotes_its_message_and_condition(fn, condition):
    with pytest.raises(AssertionError) as python:  # on a Python value: Python's own message
        ag.to_graph(fn)(-1.0)
    with pytest.raises(ag.errors.InvalidArgumentError) as staged:
        ag.function(fn)(ag.constant(-1.0))
    message = str(python.value)
    expected = f"{message} ({condition})" if message else condition
    assert str(staged.value).splitlines()[0] == f"Assertion failed: {expected}"
    assert ag.function(fn)(ag.constant(2.0)).numpy() == fn(2.0)


def test_a_compiled_assert_fails_with_the_numpy_runtimes_message():
    messages = []
    for jit_compile in (False, True):
        with pytest.raises(ag.errors.InvalidArgumentError) as staged:
            ag.function(_positive, jit_compile=jit_compile)(ag.constant(-1.0))
        messages.append(str(staged.value).splitlines()[0])
    assert messages[1] == messages[0] == "Assertion failed: x must be positive (x > 0)"


def _quotes_a_failure(x):
    assert x > 0, "Assertion failed: x must be positive"
    return x


@pytest.mark.parametrize("run", [
    lambda: ag.function(_quotes_a_failure)(ag.constant(-1.0)),
    lambda: ag.Assert(ag.constant(False), ["Assertion failed: x must be positive"]),
    lambda: ag.Assert(ag.constant(False), []),
])
def test_the_assertion_prefix_is_never_doubled(run):
    with pytest.raises(ag.errors.InvalidArgumentError) as staged:
        run()
    first_line = str(staged.value).splitlines()[0]  # eagerly after the op's name
    assert "Assertion failed" in first_line
    assert first_line.lower().count("assertion failed") == 1, first_line


# --- the autograph hint of Python control flow on a symbolic tensor -----------------------

@ag.do_not_convert
def _library_relu(x):
    if x > 0:  # Python control flow in code autograph leaves alone
        return x
    return 0.0 * x


def _calls_library(x):
    return _library_relu(x)


def _unpacks(x):
    a, b = x  # unpacking is not staged, even in converted code
    return a + b


def _hint(run):
    with pytest.raises(TypeError) as info:
        run()
    return str(info.value)


def _by_hand(fn, value):
    """`fn` called on a placeholder of a graph built by hand (no autograph at all)."""
    with ag.Graph().as_default():
        return fn(ag.placeholder(ag.float32, ag.constant(value).shape))


@pytest.mark.parametrize("fn, value", [(_calls_library, 1.0), (_unpacks, [1.0, 2.0])])
def test_the_autograph_hint_shows_only_where_autograph_is_off(fn, value):
    # Eagerly the code runs as Python does on numpy values (the oracle): only symbolic
    # tensors refuse.
    assert float(fn(ag.constant(value))) == float(fn(np.asarray(value, np.float32)))
    converted_runs = [lambda: ag.function(fn)(ag.constant(value)),
                      lambda: _by_hand(ag.to_graph(fn), value)]
    for run in converted_runs:
        message = _hint(run)
        assert "Autograph is on" in message and "autograph=True" not in message, message
    unconverted_runs = [lambda: ag.function(fn, autograph=False)(ag.constant(value)),
                        lambda: _by_hand(fn, value)]
    for run in unconverted_runs:
        message = _hint(run)
        assert "ag.function(autograph=True)" in message and "Autograph is on" not in message


def test_an_unconvertible_function_says_why_autograph_did_not_help():
    namespace = {}
    exec("def relu(x):\n    if x > 0:\n        return x\n    return 0.0 * x\n", namespace)
    relu = namespace["relu"]  # no source: autograph cannot convert it
    assert float(relu(np.float32(-2.0))) == 0.0  # plain Python, the oracle
    with pytest.warns(UserWarning, match="could not convert 'relu'"):
        message = _hint(lambda: ag.function(relu)(ag.constant(-2.0)))
    assert "could not convert the function (cannot convert relu: its source" in message
    assert "ag.function(autograph=True)" not in message
