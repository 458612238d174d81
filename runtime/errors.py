"""Errors raised by the runtime, and where the user created the failing op.

Contract: `user_location()` returns the (filename, lineno) of the innermost frame outside
the library (runtime/ and autograph_py/); a resolver registered with
`set_location_resolver` (the loader's source maps) may translate generated-code locations
back to the user's file. `OpError` names the op, its type and that location.
"""

import os as _os
import sys as _sys

_LIBRARY_DIRS = (_os.path.dirname(_os.path.abspath(__file__)),)
_resolvers = []


def add_library_dir(path):
    """Frames from files under `path` are library frames, never the user's location."""
    global _LIBRARY_DIRS
    _LIBRARY_DIRS = _LIBRARY_DIRS + (_os.path.dirname(_os.path.abspath(path)),)


def add_library_prefix(prefix):
    """Frames whose filename starts with `prefix` (a generated file's pseudo-name, such as
    the fast path's dispatching functions') are library frames too."""
    global _LIBRARY_DIRS
    _LIBRARY_DIRS = _LIBRARY_DIRS + (prefix,)


def set_location_resolver(resolver):
    """`resolver(filename, lineno) -> (filename, lineno) | None` maps generated code back."""
    _resolvers.append(resolver)


def resolve(filename, lineno):
    for resolver in _resolvers:
        mapped = resolver(filename, lineno)
        if mapped is not None:
            return mapped
    return filename, lineno


def user_location():
    frame = _sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_LIBRARY_DIRS):
            return resolve(filename, frame.f_lineno)
        frame = frame.f_back
    return None


def format_location(location):
    if location is None:
        return "<unknown location>"
    return f"{location[0]}:{location[1]}"


class OpError(RuntimeError):
    """A kernel failed while a graph ran. `op` is the failing Operation."""

    def __init__(self, op, cause):
        self.op = op
        self.cause = cause
        inputs = ", ".join(f"{t.name}: shape={t.shape} dtype={t.dtype.name}" for t in op.inputs)
        super().__init__(
            f"op '{op.name}' ({op.type}) created at {format_location(op.location)} failed: "
            f"{type(cause).__name__}: {cause}" + (f"\n  inputs: {inputs}" if inputs else ""))


_TYPED = {}


def op_error(op, cause):
    """An OpError that is also an instance of the cause's type when that is a standard
    error (IndexError, ValueError, ...), so `except IndexError` works in graph mode too."""
    base = type(cause)
    if base.__module__ != "builtins" or not issubclass(base, Exception) or \
            issubclass(base, OpError):
        return OpError(op, cause)
    cls = _TYPED.get(base)
    if cls is None:
        try:
            cls = _TYPED[base] = type("OpError", (OpError, base), {"__module__": __name__})
        except TypeError:  # a builtin whose layout cannot be mixed in
            return OpError(op, cause)
    return cls(op, cause)


class InvalidArgumentError(ValueError):
    """Bad input to an op or a session (shape, dtype or value), named in the message."""


class IndexNotInRangeError(InvalidArgumentError, IndexError):
    """An index outside [0, size) given to an op that takes no negative indices (gather):
    TensorFlow's InvalidArgumentError, and an IndexError as Python's out-of-range index."""
