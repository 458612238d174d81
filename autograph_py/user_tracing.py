"""Tracers and profilers that converted code installs see the code as written.

Converted code runs in frames of ours besides the user's: the operators (`if_stmt`,
`for_stmt`, ...), `ag__.converted`, the runtime they call. A trace function set with
`sys.settrace` gets a 'call' event for each new frame, so a debugger (`bdb`), a line
counter (`trace`) or a profiler written in Python that is itself converted would step
into, count or time autograph_py. `ag__.converted` sends these functions here when
converted code calls them:

- `settrace(tracer)` / `setprofile(profiler)` install `tracer` behind a filter: an event
  of a frame of ours (or of a library function ours called) is not passed on (for a
  'call' event the filter returns None, so the frame is not traced line by line; frames
  it calls are still offered), every other event is the tracer's, and what the tracer
  returns is the frame's local tracer, as Python uses it;
- `gettrace()` / `getprofile()` give back what the converted code installed (the filter
  is not what it set);
- `threading.settrace` / `setprofile` (and `gettrace` / `getprofile`) do the same for
  threads started afterwards.

Frames of the user's code are traced as they are. A generated closure (`if_body`, ...:
it runs the user's lines, named as the user's function, frame_names) is traced when the
frame of its function is, as those lines would be in the original; a profiler does not
see closures' calls and returns (their function's call is counted once). A tracer that unconverted
code installs (a debugger started by hand, coverage) sees our frames: see
docs/limitations.md.
"""

import sys
import threading

from autograph_py import library_paths, loader, user_stack

# A frame's kind by its file: ours; a library's or code compiled from a string (whose
# frame is its caller's kind); a converted function's file (the user's function, or our
# scaffolding around it); the user's.
_OURS, _CALLERS, _GENERATED, _USER = range(4)
_kinds = {}  # filename -> its kind


def _file_kind(filename):
    kind = _kinds.get(filename)
    if kind is None:
        if filename.startswith(library_paths.OWN_PREFIXES):
            kind = _OURS
        elif filename.startswith(loader.GENERATED_PREFIX):
            kind = _GENERATED
        elif filename.startswith("<") or library_paths.is_library_file(filename):
            kind = _CALLERS  # `<frozen posixpath>`, `<string>`: a namedtuple's __new__
        else:
            kind = _USER
        _kinds[filename] = kind
    return kind


def _is_ours(frame):
    """Whether `frame` runs for autograph_py: a frame of ours (or of the scaffolding of a
    converted function's file), or a library's or string-compiled code's called by ours
    (`os.path` and the converters' helpers for `ag__.converted`), such callers between. A
    user's function that our operators call (a loop body) is the user's."""
    while frame is not None:
        code = frame.f_code
        kind = _file_kind(code.co_filename)
        if kind == _GENERATED:
            return code.co_name in loader.SCAFFOLDING
        if kind != _CALLERS:
            return kind == _OURS
        frame = frame.f_back
    return False


class _Filtered:
    """A trace function that does not see autograph_py's frames; a generated closure is
    traced when the frame of the function it runs for is (its lines are that function's:
    a function called before the tracer was set is not traced, nor are its closures)."""

    __slots__ = ("user",)

    def __init__(self, user):
        self.user = user

    def __call__(self, frame, event, arg):
        if _is_ours(frame):
            return None
        function = user_stack.function_frame(frame)
        if function is not frame and function.f_trace is None:
            return None
        return self.user(frame, event, arg)


class _FilteredProfile(_Filtered):
    """A profile function that does not see autograph_py's frames, nor the calls and
    returns of generated closures (the time they take is their function's, counted once
    per call of it)."""

    __slots__ = ()

    def __call__(self, frame, event, arg):
        if _is_ours(frame):
            return None
        if event in ("call", "return") and user_stack.function_frame(frame) is not frame:
            return None
        return self.user(frame, event, arg)


def _filtered(function, kind=_Filtered):
    return None if function is None else kind(function)


def _unfiltered(function):
    return function.user if isinstance(function, _Filtered) else function


def settrace(tracer):
    sys.settrace(_filtered(tracer))


def setprofile(profiler):
    sys.setprofile(_filtered(profiler, _FilteredProfile))


def gettrace():
    return _unfiltered(sys.gettrace())


def getprofile():
    return _unfiltered(sys.getprofile())


def thread_settrace(tracer):
    threading.settrace(_filtered(tracer))


def thread_setprofile(profiler):
    threading.setprofile(_filtered(profiler, _FilteredProfile))


def thread_gettrace():
    return _unfiltered(threading.gettrace())


def thread_getprofile():
    return _unfiltered(threading.getprofile())


# What converted code calls in place of each (`ag__.converted`).
REPLACEMENTS = {
    sys.settrace: settrace,
    sys.setprofile: setprofile,
    sys.gettrace: gettrace,
    sys.getprofile: getprofile,
    threading.settrace: thread_settrace,
    threading.setprofile: thread_setprofile,
    threading.gettrace: thread_gettrace,
    threading.getprofile: thread_getprofile,
}
