"""The functions of a file that `autograph convert` leaves as written by design, each
with a note saying so, so that none is skipped silently.

Contract of `left_as_written(node, qualname, name) -> note or None`: a note
(`file:line: note: ...`, at the `def` line) for a generator (its own body yields) or an
`async def`, None for any other function. Both run as Python: a generator's suspended
frame and a coroutine's event loop have no dataflow counterpart; a function that
iterates a generator or awaits nothing but calls a helper still converts, and its call
of the helper runs the helper as written (`conversion.converted_call`). A note leaves
the exit status 0.
"""

import gast

from autograph_py.converters.functions import is_generator


def left_as_written(node, qualname, name):
    if isinstance(node, gast.AsyncFunctionDef):
        what = "an async generator" if is_generator(node) else "async"
        return _note(node, qualname, name, f"is {what}", "async functions run as Python")
    if is_generator(node):
        return _note(node, qualname, name, "is a generator", "generators run as Python")
    return None


def _note(node, qualname, name, what, why):
    return f"{name}:{node.lineno}: note: {qualname}() {what}; left as written ({why})"
