"""Warnings about Python code that runs while a graph is traced, each given once per line.

Contract: `warn_once(category, message)` warns with `message(where)` (`where` is the
user's `file:line`, converted code mapped back to its source) at that file and line,
unless this category already warned for that line. `print_` is the `print` of converted
code: the builtin, warning (`TraceTimeSideEffectWarning`) when it runs while a graph is
built, since it then prints once per trace, not on each call.
`outer_list_append(target, x, name)` is `name.append(x)` on a list the converted code did
not make (a global, a closure variable from outside it; converters/lists.py decides):
`list_append(target, x)`, warning the same way when a Python list grows while a graph is
built, since it then grows once per trace, not on each call.
"""

import builtins
import threading
import warnings

from autograph_py.runtime import context, errors
from autograph_py.runtime.operators.lists import list_append

_warned = set()  # (category, (filename, lineno)) already warned
_lock = threading.Lock()


class TraceTimeSideEffectWarning(UserWarning):
    """A Python side effect that runs while the function is traced, not when it runs."""


def warn_once(category, message):
    location = errors.user_location()
    with _lock:
        if (category, location) in _warned:
            return
        _warned.add((category, location))
    filename, lineno = location if location is not None else ("<unknown>", 0)
    warnings.warn_explicit(message(errors.format_location(location)), category, filename,
                           lineno)


def print_(*args, **kwargs):
    """`print(...)`; while a graph is built it prints once per trace, so it warns."""
    if context.current_graph() is not None:
        warn_once(TraceTimeSideEffectWarning, lambda where: (
            f"print() at {where} runs while the function is traced, not on each call: use "
            "ag.print(...) to print every time the graph runs (with tensors' values)"))
    return builtins.print(*args, **kwargs)


def outer_list_append(target, x, name):
    """`target.append(x)` on a list from outside the function; while a graph is built it
    grows once per trace, so it warns."""
    if isinstance(target, list) and context.current_graph() is not None:
        warn_once(TraceTimeSideEffectWarning, lambda where: (
            f"{name}.append() at {where} appends to a list defined outside the function "
            "while the function is traced, not on each call: return the value instead (an "
            "ag.TensorArray or a list local to the function collects values in a loop), or "
            "use ag.print(...) to see it every time the graph runs"))
    return list_append(target, x)
