"""Where in the user's file: the lines `autograph graph` puts in front of its messages.

Contract:
- `user_line(error, path)`: `path:line` of the innermost traceback line of `error` in the
  file `path` (converted code mapped back to the user's lines through the source maps),
  or None when the traceback never passes through that file.
- `definition(fn)`: `(file, line)` of `fn`'s `def` (through `ag.function` and other
  `__wrapped__` wrappers), or None when there is no source; `format_location` writes it
  as `file:line` (None stays None).
- `describe(error)`: `TypeName: first line of the message`.
"""

import inspect
import os

from autograph_py.source_map import lookup as source_line


def describe(error):
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def user_line(error, path):
    found = None
    tb = error.__traceback__
    while tb is not None:
        filename, lineno = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        mapped = source_line(filename, lineno)
        if mapped is not None:
            filename, lineno = mapped
        if _same_file(filename, path):
            found = f"{path}:{lineno}"
        tb = tb.tb_next
    return found


def _same_file(filename, path):
    try:
        return os.path.samefile(filename, path)
    except OSError:
        return False


def definition(fn):
    target = inspect.unwrap(fn)  # an ag.function wraps the Python function
    try:
        return inspect.getsourcefile(target), inspect.getsourcelines(target)[1]
    except (OSError, TypeError):
        return None


def format_location(location):
    return None if location is None else f"{location[0]}:{location[1]}"
