"""Warnings that name the cause: the retracing warning of ag.function names each argument
that changed and how, once, at the caller's line; a Python loop unrolled while tracing
warns once at the loop's line. What they say is derived from the arguments and the source
(the oracle), never from a hard-coded message."""

import inspect
import warnings

import numpy as np
import pytest
from autograph_py.runtime.operators.trace_warnings import TraceTimeSideEffectWarning
from autograph_py.runtime.operators.unrolling import UNROLL_WARNING_THRESHOLD, UnrolledLoopWarning

import autograph_py as ag
from autograph_py.tracing.function import RETRACE_WARNING_THRESHOLD
from autograph_py.tracing.retrace_warnings import RetracingWarning


def _calls_until_warning(f, calls):
    """Run `calls` (argument tuples); the one RetracingWarning raised, checked to come at
    the trace after the threshold and at this file's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for args in calls:
            f(*args)
    retraces = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(retraces) == 1, [str(w.message) for w in retraces]  # once, not per trace
    assert retraces[0].filename == __file__
    assert f.experimental_get_tracing_count() == len(calls)
    return str(retraces[0].message)


def test_retracing_names_the_changed_tensor_shape_and_python_number():
    f = ag.function(lambda x, n, unchanged: x * n + unchanged)
    sizes = range(3, 3 + RETRACE_WARNING_THRESHOLD + 3)
    message = _calls_until_warning(
        f, [(ag.constant(np.ones(s, np.float32)), s, 1.0) for s in sizes])
    seen = list(sizes)[:RETRACE_WARNING_THRESHOLD + 1]
    assert "'<lambda>' was traced 6 times" in message
    assert "  x: float32 shape " + " -> ".join(str((s,)) for s in seen) in message
    assert "  n: Python int " + " -> ".join(map(str, seen)) in message
    assert "unchanged" not in message  # only what changed is named
    assert "pass n as a tensor" in message and "reduce_retracing=True so x" in message


def test_retracing_opens_containers_and_names_the_item():
    @ag.function
    def scaled(x, config):
        return x * config["scale"]

    calls = [(ag.constant(1.0), {"scale": float(i), "name": "fixed"})
             for i in range(RETRACE_WARNING_THRESHOLD + 1)]
    message = _calls_until_warning(scaled, calls)
    history = " -> ".join(repr(float(i)) for i in range(RETRACE_WARNING_THRESHOLD + 1))
    assert f"  config['scale']: Python float {history}" in message
    assert "config['name']" not in message and "  x:" not in message


def test_no_warning_while_a_trace_serves_the_calls():
    f = ag.function(lambda x: x + 1, reduce_retracing=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for n in range(1, 3 * RETRACE_WARNING_THRESHOLD):
            np.testing.assert_array_equal(f(ag.constant(np.zeros(n))).numpy(), np.ones(n))
    assert f.experimental_get_tracing_count() == 2  # the first shape, then [None]


def test_retracing_warning_is_a_user_warning():
    assert issubclass(RetracingWarning, UserWarning)
    f = ag.function(lambda n: n)
    for n in range(RETRACE_WARNING_THRESHOLD):
        f(n)
    history = " -> ".join(map(str, range(RETRACE_WARNING_THRESHOLD + 1)))
    with pytest.warns(RetracingWarning, match=f"n: Python int {history}"):
        f(RETRACE_WARNING_THRESHOLD)


# --- loops unrolled while tracing ----------------------------------------------------------

def _python_loops(x):
    total = 0
    for i in range(UNROLL_WARNING_THRESHOLD + 500):
        total += i
    n = 0
    while n < UNROLL_WARNING_THRESHOLD + 5:
        n += 1
    return x + total + n


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_a_long_python_loop_while_tracing_warns_once_at_the_users_line():
    staged = ag.function(_python_loops)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = staged(ag.constant(1.0))
        staged(ag.constant([1.0, 2.0]))  # a second trace of the same loops: no new warning
    assert result.numpy() == np.float32(_python_loops(1.0))
    unrolled = [w for w in caught if issubclass(w.category, UnrolledLoopWarning)]
    assert [(w.filename, w.lineno) for w in unrolled] == [
        (__file__, _line_of(_python_loops, "for i in")),
        (__file__, _line_of(_python_loops, "while n <"))]
    message = str(unrolled[0].message)
    assert f"{__file__}:{_line_of(_python_loops, 'for i in')}" in message
    assert "ag.range(n)" in message and f"ran {UNROLL_WARNING_THRESHOLD} iterations" in message


@pytest.mark.parametrize("mode", ["python", "eager"])
def test_long_python_loops_outside_a_trace_do_not_warn(mode):
    x = 1.0 if mode == "python" else ag.constant(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ag.to_graph(_python_loops)(x)
    assert float(result) == _python_loops(1.0)


def test_a_short_python_loop_while_tracing_does_not_warn():
    def short(x):
        total = 0
        for i in range(UNROLL_WARNING_THRESHOLD - 1):
            total += i
        return x + total

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ag.function(short)(ag.constant(2.0)).numpy() == np.float32(short(2.0))


# --- Python side effects while tracing -----------------------------------------------------

def _prints_while_tracing(x):
    print("tracing", x)
    return x + 1


def test_print_while_tracing_warns_once_per_line_and_prints_once_per_trace(capsys):
    staged = ag.function(_prints_while_tracing)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for value in (1.0, 2.0, [1.0, 2.0]):  # two traces: a scalar, then a vector
            x = ag.constant(value)
            np.testing.assert_array_equal(staged(x).numpy(), np.add(value, 1, dtype=np.float32))
    effects = [w for w in caught if issubclass(w.category, TraceTimeSideEffectWarning)]
    line = _line_of(_prints_while_tracing, "print(")
    assert [(w.filename, w.lineno) for w in effects] == [(__file__, line)]
    assert f"print() at {__file__}:{line}" in str(effects[0].message)
    assert "ag.print" in str(effects[0].message)
    assert capsys.readouterr().out.count("tracing") == staged.experimental_get_tracing_count()


@pytest.mark.parametrize("mode", ["python", "eager"])
def test_print_outside_a_trace_does_not_warn(mode, capsys):
    x = 1.0 if mode == "python" else ag.constant(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ag.to_graph(_prints_while_tracing)(x)
    printed = capsys.readouterr().out
    assert float(result) == _prints_while_tracing(1.0)
    assert printed == capsys.readouterr().out.replace("1.0", str(x))  # as plain Python


# --- appends to lists defined outside the function -----------------------------------------

_LOG = []


def _logs_to_a_global(x):
    _LOG.append(x)
    return x + 1


def _closure_logging():
    seen = []

    def logs_to_a_cell(x):
        seen.append(x)
        return x * 2

    return logs_to_a_cell, seen


def _collects_in_locals(x):
    out = []

    def keep(v):
        out.append(v)  # a closure cell, but of the traced function: made on each trace

    keep(x)
    out.append(x + 1)
    return out[0] + out[1]


def _logs_while_building(x):  # warnings are once per line: lines of its own
    _LOG.append(x)
    return x + 1


def _closure_logging_while_building():
    seen = []

    def logs_to_a_cell(x):
        seen.append(x)
        return x * 2

    return logs_to_a_cell, seen


def _side_effects(mode, building=False):
    """(function, the list it appends to outside itself) fresh for each test."""
    _LOG.clear()
    if mode == "global":
        return (_logs_while_building if building else _logs_to_a_global), _LOG
    return _closure_logging_while_building() if building else _closure_logging()


def _append_warnings(caught):
    return [w for w in caught if issubclass(w.category, TraceTimeSideEffectWarning)]


@pytest.mark.parametrize("outer", ["global", "closure"])
def test_an_outer_append_while_tracing_warns_once_at_the_users_line(outer):
    fn, appended = _side_effects(outer)
    staged = ag.function(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for value in (1.0, 2.0, [1.0, 2.0]):  # two traces: a scalar, then a vector
            np.testing.assert_array_equal(staged(ag.constant(value)).numpy(),
                                          fn(np.asarray(value, np.float32)))
    effects = _append_warnings(caught)
    line = _line_of(fn, ".append(")
    assert [(w.filename, w.lineno) for w in effects] == [(__file__, line)]
    name = "_LOG" if outer == "global" else "seen"
    assert f"{name}.append() at {__file__}:{line}" in str(effects[0].message)
    assert "return the value" in str(effects[0].message)
    # Once per trace, plus the three oracle calls above: the calls that hit a trace
    # appended nothing, as the warning says.
    assert len(appended) == staged.experimental_get_tracing_count() + 3


@pytest.mark.parametrize("outer", ["global", "closure"])
def test_an_outer_append_while_a_session_graph_is_built_warns(outer):
    fn, appended = _side_effects(outer, building=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ag.Graph().as_default():
            x = ag.placeholder(ag.float32, [])
            result = ag.to_graph(fn)(x)
            with ag.Session() as sess:
                assert sess.run(result, {x: 3.0}) == fn(np.float32(3.0))
    assert [w.lineno for w in _append_warnings(caught)] == [_line_of(fn, ".append(")]
    assert appended[0] is x  # appended once, while building: the symbolic tensor


@pytest.mark.parametrize("outer", ["global", "closure"])
@pytest.mark.parametrize("mode", ["python", "eager"])
def test_an_outer_append_outside_a_trace_runs_as_python_without_warning(outer, mode):
    fn, appended = _side_effects(outer)
    x = 2.0 if mode == "python" else ag.constant(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = ag.to_graph(fn)(x)
    assert float(result) == fn(2.0)  # the oracle appends too
    assert [float(v) for v in appended] == [2.0, 2.0]


@pytest.mark.parametrize("mode", ["python", "eager", "function"])
def test_appends_to_lists_the_function_makes_do_not_warn(mode):
    x = {"python": 1.0, "eager": ag.constant(1.0), "function": ag.constant(1.0)}[mode]
    converted = ag.function(_collects_in_locals) if mode == "function" else \
        ag.to_graph(_collects_in_locals)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(converted(x)) == _collects_in_locals(1.0)
