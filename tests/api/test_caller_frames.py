"""A library function that reads its caller's frame sees the converted function's own
frame, as it sees the original's (issue 24, real code): converted code calls
`ag__.converted(f)(args)`, so the call runs in the converted function's frame, not in one
of autograph_py's. `collections.namedtuple` takes the new class's `__module__` from its
caller's globals (pickling needs it), `logging` names the function that logged, and
`sys._getframe()` is the function's frame.
"""

import collections
import logging
import sys

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode
from tests.converted_path import converted_path


def makes_a_record_type(x):
    Pair = collections.namedtuple("Pair", "a b")
    pair = Pair(x, x + 1)
    return pair.a + pair.b, Pair.__module__


def names_its_own_frame(x):
    frame = sys._getframe()
    return x * 2, frame.f_code.co_name, frame.f_globals["__name__"]


def reads_its_frame_in_a_branch(x):
    marker = x + 1
    if x > 0:
        frame = sys._getframe()
        name, seen = frame.f_code.co_name, frame.f_locals["marker"]
    else:
        name, seen = "", 0
    return name, seen + marker


def caller_name_in_a_loop(n):
    names = []
    for _ in range(n):
        names.append(sys._getframe(1).f_code.co_name)
    return names


def _names_outwards():
    # A walk over `f_back`, as logging's findCaller and gettext's stack level do it.
    frame, names = sys._getframe(0), []
    while frame is not None and len(names) < 3:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return names


def walks_its_callers(x):
    # Called from a branch and a loop body: the walk meets the function, not the closures
    # conversion generated for them nor the operators that run them (Python conditions:
    # the walk's names are strings, in every mode).
    names = []
    if not names:
        for _ in range(1):
            names = _names_outwards()
    return x + 1, names


def calls_a_walker(x):
    result = x, []
    if not result[1]:
        result = walks_its_callers(x)
    return result


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


_LOGGER = logging.getLogger(__name__ + ".caller_frames")


def logs_a_message(x):
    _LOGGER.warning("value %s", 1)
    return x + 1


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn", [makes_a_record_type, names_its_own_frame,
                                reads_its_frame_in_a_branch])
def test_the_caller_frame_is_the_functions(fn, mode):
    assert_same(fn(3), run_mode(mode, fn, (3,)))


@pytest.mark.parametrize("mode", MODES)
def test_a_walk_over_f_back_meets_the_frames_of_the_code_as_written(mode):
    # Three frames: the fourth is the caller, this test or the mode's runner.
    assert_same(calls_a_walker(3), run_mode(mode, calls_a_walker, (3,)))


def test_f_back_reads_go_through_the_stack_as_written():
    assert "frame = ag__.f_back(frame)" in ag.to_code(_names_outwards)


@pytest.mark.parametrize("mode", MODES)
def test_logging_names_the_function_that_logged(mode):
    handler = _Records()
    _LOGGER.addHandler(handler)
    try:
        expected = logs_a_message(3)
        assert_same(expected, run_mode(mode, logs_a_message, (3,)))
    finally:
        _LOGGER.removeHandler(handler)
    first, converted = handler.records
    # The file and line are the converted code's: to_graph compiles it as a file of its
    # own (tracebacks map it back: error_rewriting). A module `autograph convert` wrote
    # is the user's file (tests/cli/test_cli_real_code.py).
    assert converted.funcName == first.funcName == "logs_a_message"


def test_to_code_calls_in_the_functions_frame():
    code = ag.to_code(makes_a_record_type)
    assert "ag__.converted(collections.namedtuple)('Pair', 'a b')" in code


def test_the_frame_one_out_from_a_loop_body_is_the_callers():
    # sys._getframe(1) in a generated loop body: the caller of the function, not the
    # function (the body's caller) nor the loop operator.
    with converted_path():
        assert ag.to_graph(caller_name_in_a_loop)(2) == caller_name_in_a_loop(2) == [
            "test_the_frame_one_out_from_a_loop_body_is_the_callers"] * 2
