"""A tracer that converted code installs (`sys.settrace`, as `bdb` and `trace` do) sees the
code as written: the user's calls, none of autograph_py's frames (the operators,
`ag__.converted`, the runtime, the library functions they call), and no generated closure
of a function it does not trace; `sys.gettrace()` gives back the tracer (issue 24, real
code: a converted `bdb` stepped into `ag__.converted`, a converted `trace` counted our
lines). Oracle: the same function as plain Python."""

import sys
import threading

import pytest

import autograph_py as ag
from autograph_py import library_paths
from tests.api.modes import MODES, assert_same, run_mode
from tests.converted_path import converted_path


class _Recorder:
    def __init__(self):
        self.calls, self.lines, self.ours = [], 0, 0

    def __call__(self, frame, event, arg):
        if frame.f_code.co_filename.startswith(library_paths.OWN_PREFIXES):
            self.ours += 1
        if event == "call":
            self.calls.append(frame.f_code.co_name)
        else:
            self.lines += event == "line"
        return self

    def summary(self):
        return self.calls, self.lines > 0, self.ours


def _traced(x):
    y = x + 1
    return y * 2


def runs_a_traced_call(x):
    recorder = _Recorder()
    y = x
    sys.settrace(recorder)
    try:
        for _ in range(2):
            if recorder.ours == 0:
                y = _traced(y)
        installed = sys.gettrace() is recorder
    finally:
        if installed:
            sys.settrace(None)
    return y, installed, recorder.summary()


@pytest.mark.parametrize("mode", MODES)
def test_a_tracer_converted_code_installs_sees_the_code_as_written(mode):
    previous = sys.gettrace()  # a debugger or coverage running the tests
    try:
        assert_same(runs_a_traced_call(3), run_mode(mode, runs_a_traced_call, (3,)))
    finally:
        sys.settrace(previous)


def profiles_a_call(x):
    recorder = _Recorder()
    sys.setprofile(recorder)
    y = x
    if y > 0:
        y = _traced(y)
    installed = sys.getprofile() is recorder
    sys.setprofile(None)
    return y, installed, [c for c in recorder.calls if c == "_traced"], recorder.ours


def test_a_profiler_converted_code_installs_sees_the_code_as_written():
    previous = sys.getprofile()
    try:
        with converted_path():
            assert ag.to_graph(profiles_a_call)(3) == profiles_a_call(3)
    finally:
        sys.setprofile(previous)


def installs_a_thread_tracer(x):
    recorder = _Recorder()
    threading.settrace(recorder)
    installed = threading.gettrace() is recorder
    threading.settrace(None)
    return x, installed


def test_thread_tracers_are_given_back_as_installed():
    with converted_path():
        assert ag.to_graph(installs_a_thread_tracer)(1) == installs_a_thread_tracer(1)
