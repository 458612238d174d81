"""The call stack as the code as written has it, for code that looks at its callers.

Converted code runs in more frames than the original: autograph_py's own
(the operators, `to_graph`'s wrapper, tracing, the fast path's dispatching functions,
the function as written that hands a call over to its conversion)
and the closures conversion generated (`if_body`, `loop_body`,
the operands of `and`/`or`, ...), which run the statements of the function they were
generated in. `user_frames(frame)` yields, innermost first from `frame`, one frame per
frame the original program would have: our own frames skipped, and a generated closure
standing for the function it was generated in (its line is the current line of that
function), followed by that function's caller.

A frame is a generated closure of the next frame outwards that is not ours or a library's
when its code is one of that frame's code's constants (it was defined in it), it is no
generator, and only our runtime's frames (and libraries', such as JAX's when it stages)
called it, at least one runtime frame among them. A function the user defined in the
function and handed to our runtime indirectly, e.g. `for y in map(g, xs)` (the for loop's
operator calls `g` through `map`), looks the same and is merged too (docs/limitations.md).

`getframe(frame, depth=0)` is `sys._getframe(depth)` (and `inspect.currentframe()`)
called by the converted code at `frame` (`ag__.converted` sends it here): the frame of
the `depth`-th function outwards, a generated closure giving way to the function it was
generated in (its locals, its name, its caller as `f_back`).

`caller(frame)` is `frame.f_back` read by converted code (`f_back`, `ag__.f_back`, converters/
frame_walks.py): the caller of `frame`'s function in the code as written, so a walk
outwards over `f_back` (logging's `findCaller`, gettext's stack level, `bdb`'s
`set_trace`) meets the frames the original program has, and None past the outermost.

`warn(frame, message, category, stacklevel, source)` is `warnings.warn` called by the
converted code at `frame` (`ag__.converted` sends it here): the warning names the frame
and line that `stacklevel` names in the code as written, a line of generated code mapped
to the user's line (`source_map`), with the registry and module of that frame's globals
as `warnings.warn` takes them.
"""

import inspect
import operator
import sys
import types
import warnings

from autograph_py import fast_path, library_paths, source_map

# Generator, coroutine, iterable coroutine, async generator: never a generated closure.
_GENERATOR_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | (
    inspect.CO_ITERABLE_COROUTINE | inspect.CO_ASYNC_GENERATOR)


def _is_own(frame):
    filename = frame.f_code.co_filename
    return (filename.startswith(library_paths.OWN_PREFIXES)
            or filename == fast_path.DISPATCH_FILENAME)


def _outer_frame(frame):
    """(the first frame from `frame` outwards that is neither ours nor a library's, whether
    the frames before it may have called a generated closure: at least one of our
    runtime's, and none of autograph_py's call boundaries (`converted_call`, `to_graph`'s
    wrapper), which call functions of the user's)."""
    runtime = boundary = False
    while frame is not None and library_paths.is_library_file(frame.f_code.co_filename):
        filename = frame.f_code.co_filename
        runtime = runtime or filename.startswith(library_paths.RUNTIME_PREFIX)
        boundary = boundary or filename.startswith(library_paths.API_PREFIX)
        frame = frame.f_back
    return frame, runtime and not boundary


def function_frame(frame):
    """The frame of the function `frame` runs in: `frame` itself, or for a generated
    closure, the frame of the function it was generated in."""
    while True:
        code = frame.f_code
        outer, maybe_generated = _outer_frame(frame.f_back)
        if not (maybe_generated and outer is not None and code in outer.f_code.co_consts
                and not code.co_flags & _GENERATOR_FLAGS):
            return frame
        frame = outer


def _caller_of_function(frame):
    """The frame after `frame`'s function (generated closures merged into the function
    they were generated in), ours and libraries' included; after the function as written
    that handed its call over to the conversion `frame` is in (`fast_path.conversion`):
    the same call."""
    function = function_frame(frame)
    caller = function.f_back
    if caller is not None and _conversion_code(caller) is function.f_code:
        return caller.f_back
    return caller


def user_frames(frame):
    """The frames the code as written has, innermost first, from `frame` outwards."""
    while frame is not None:
        if _is_own(frame):
            frame = frame.f_back
            continue
        yield frame
        frame = _caller_of_function(frame)


def getframe(frame, depth=0):
    """`sys._getframe(depth)` as the converted code at `frame` calls it."""
    depth = operator.index(depth)
    while frame is not None:
        if _is_own(frame):
            frame = frame.f_back
            continue
        if depth <= 0:
            return function_frame(frame)
        depth -= 1
        frame = _caller_of_function(frame)
    raise ValueError("call stack is not deep enough")


def caller(frame):
    """`frame.f_back` as the code as written has it (`ag__.f_back(frame)`)."""
    frames = user_frames(frame)
    next(frames, None)  # `frame` itself, or the user's frame standing for it
    return next(frames, None)


def f_back(frame):
    """`frame.f_back` in converted code: `caller(frame)` for a frame, the attribute of
    anything else."""
    if type(frame) is not types.FrameType:
        return frame.f_back
    return caller(frame)


def _conversion_code(frame):
    twin = fast_path.twin_of(frame.f_code)
    return twin.__code__ if twin is not None else None


def _is_internal(frame):
    # What `warnings.warn` skips when it counts frames (the import system's).
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename


def warn(frame, message, category=None, stacklevel=1, source=None, **kwargs):
    """`warnings.warn(message, category, stacklevel, source)` as called at `frame`."""
    if kwargs:  # Python 3.12's skip_file_prefixes, or a wrong keyword: Python's own answer
        return warnings.warn(message, category, stacklevel, source, **kwargs)
    if isinstance(message, Warning):
        category = message.__class__
    elif category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f"category must be a Warning subclass, not "
                        f"'{type(category).__name__}'")
    stacklevel = operator.index(stacklevel)
    frames = user_frames(frame)
    target = next(frames, None)
    for _ in range(stacklevel - 1):
        target = next((f for f in frames if not _is_internal(f)), None)
        if target is None:
            break
    if target is None:  # past the outermost frame: what Python names then
        globals_, filename, lineno = sys.__dict__, "sys", 1
    else:
        globals_ = target.f_globals
        filename, lineno = source_map.lookup(target.f_code.co_filename, target.f_lineno) or (
            target.f_code.co_filename, target.f_lineno)
    registry = globals_.setdefault("__warningregistry__", {})
    module = globals_.get("__name__", "<string>")
    if module is not None and not isinstance(module, str):
        module = "<string>"
    warnings.warn_explicit(message, category, filename, lineno, module, registry,
                           source=source)
