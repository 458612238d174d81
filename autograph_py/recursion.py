"""A recursion that cannot end while tracing, told apart from Python's RecursionError.

Contract: `staged_recursion(exc)` is what `to_graph`'s wrapper raises in place of `exc`:
- for a RecursionError whose recursion went through a staged statement (a converted
  function called again inside a body that a staging backend traces: a branch of an `if`,
  a ternary, `and`/`or`, or a loop whose condition is a symbolic tensor or a JAX tracer),
  a `StagedRecursionError` (a RecursionError). Such a recursion never ends while
  tracing: the condition has no value then, so both branches are traced, the call again
  with them, at every level. The message names the function (its `def`), the line that
  calls it again and the staged statement (file:line and source text), and says what to
  write instead (a loop, or recursion on Python values);
- for a StagedRecursionError (a nested converted call diagnosed it first), that error
  with its traceback cleared, so it reaches the user through the outer frames only;
- None for anything else: a recursion that Python values bound (however deep) or that
  never staged keeps Python's error.
The wrapper raises the error outside its `except` block, so no chained context repeats
the thousand frames of the recursion.
"""

import collections
import linecache

from autograph_py import error_rewriting, loader, source_map
from autograph_py.runtime.operators import backends

# The backend methods that trace a body: their frames mark a staged statement.
_TRACING_METHODS = ("if_stmt", "loop", "for_stmt", "cond")


class StagedRecursionError(RecursionError):
    """A converted function called itself inside a staged statement while tracing."""


def staged_recursion(exc):
    if isinstance(exc, StagedRecursionError):
        return exc.with_traceback(None)
    if type(exc) is not RecursionError:
        return None
    try:
        return _diagnosed(exc)
    except RecursionError:
        return None  # too deep to look from here: the wrapper of an outer call will


def _diagnosed(exc):
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code, tb.tb_lineno))
        tb = tb.tb_next
    entries = [i for i, (code, _) in enumerate(frames) if _is_converted_function(code)]
    counts = collections.Counter(frames[i][0] for i in entries)
    if not counts:
        return None
    function, calls = counts.most_common(1)[0]
    if calls < 3:
        return None
    mine = [i for i in entries if frames[i][0] is function]
    cycle = frames[mine[-2]:mine[-1]]
    tracing = _tracing_codes()
    staged = next((k for k, (code, _) in enumerate(cycle) if code in tracing), None)
    if staged is None:
        return None
    statement = _last_user_line(cycle[:staged])
    call = _last_user_line(cycle[staged:])
    definition = source_map.lookup(function.co_filename, function.co_firstlineno)
    if statement is None or call is None or definition is None:
        return None
    name = function.co_name
    return StagedRecursionError(
        f"{name} (defined at {_where(definition)}) recurses while it is being traced, and "
        f"the recursion cannot end: the call at {_where(call)}{_source(call)}\n"
        f"is inside a statement staged at {_where(statement)}{_source(statement)}\n"
        "whose condition is a symbolic tensor (or a JAX tracer): both of its branches are\n"
        "traced, the recursive call with them, at every level (Python's recursion limit\n"
        f"stopped it). Write {name} as a loop (a `while` on that condition, or\n"
        "`for i in range(n)` with a tensor `n`), staged as one loop, or recurse on Python\n"
        "values (say, the depth as a Python int), which end while tracing.")


def _is_converted_function(code):
    return (code.co_filename.startswith(loader.GENERATED_PREFIX)
            and not code.co_name.startswith("<") and error_rewriting.written_by_user(code))


def _tracing_codes():
    codes = set()
    for backend in backends.loaded():
        for method in _TRACING_METHODS:
            code = getattr(getattr(backend, method, None), "__code__", None)
            if code is not None:
                codes.add(code)
    return codes


def _last_user_line(frames):
    for code, lineno in reversed(frames):
        mapped = source_map.lookup(code.co_filename, lineno)
        if mapped is not None:
            return mapped
    return None


def _where(location):
    return f"{location[0]}:{location[1]}"


def _source(location):
    text = linecache.getline(*location).strip()
    return f"\n    {text}" if text else ""
