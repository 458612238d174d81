"""Trace-time warnings that tests trigger on purpose, expected and checked.

Tests that print (or append to an outer list) while a function is traced do so on
purpose: the article's examples print at trace time to show when tracing happens. The
runtime then warns (`TraceTimeSideEffectWarning`, runtime/operators/trace_warnings.py);
these helpers expect that warning, by category and message, at the line that does it, so
the suite's warning summary keeps only warnings nobody expected.

The runtime warns once per line per process. Inside `expect_trace_time(...)` (and
`prints_while_tracing_in(path)`, for a document's examples) that memory starts empty, so
the warning comes whichever test traced the line first; the lines it warned for are
remembered afterwards, as they would have been without it.
"""

import contextlib
import inspect
import pathlib
import re
import warnings

from autograph_py.runtime.operators import trace_warnings
from autograph_py.runtime.operators.trace_warnings import TraceTimeSideEffectWarning


def line_of(fn, text):
    """(file, line) of the first line of `fn`'s source (an ag.function's Python function,
    nested functions included) that contains `text`."""
    target = inspect.unwrap(fn)
    lines, first = inspect.getsourcelines(target)
    offset = next(i for i, line in enumerate(lines) if text in line)
    return inspect.getsourcefile(target), first + offset


def print_warning(fn, text="print("):
    """The message of a `print` in `fn` (on the line containing `text`) run while tracing."""
    path, line = line_of(fn, text)
    return rf"^print\(\) at {re.escape(f'{path}:{line}')} runs while the function is traced, "


def append_warning(fn, name):
    """The message of `name.append(...)` in `fn`, on a list from outside it, while tracing."""
    path, line = line_of(fn, f"{name}.append(")
    return (rf"^{re.escape(name)}\.append\(\) at {re.escape(f'{path}:{line}')} appends to a "
            "list defined outside the function while the function is traced")


@contextlib.contextmanager
def expect_trace_time(*messages, category=TraceTimeSideEffectWarning):
    """The block warns `category` exactly once with each of `messages` (regexes, searched
    in the warning's text); no line counts as warned before the block. Other warnings are
    given again after it, so pytest's summary still lists them."""
    with _recording() as caught:
        yield
    expected = [w for w in caught if issubclass(w.category, category)
                and any(re.search(m, str(w.message)) for m in messages)]
    _give_again(w for w in caught if w not in expected)
    for message in messages:
        found = [str(w.message) for w in expected if re.search(message, str(w.message))]
        assert len(found) == 1, (f"expected one {category.__name__} matching {message!r}, "
                                 f"got {found or [str(w.message) for w in caught]}")


@contextlib.contextmanager
def prints_while_tracing_in(path):
    """The block may print while tracing, at `print(` lines of the file `path` (a document's
    example that shows when tracing happens): each such warning names its line. Other
    warnings are given again after the block."""
    with _recording() as caught:
        yield
    lines = pathlib.Path(path).read_text().splitlines()
    prints = [w for w in caught if issubclass(w.category, TraceTimeSideEffectWarning)
              and w.filename == str(path)]
    for w in prints:
        assert "print(" in lines[w.lineno - 1], (w.lineno, str(w.message))
        assert re.search(rf"^print\(\) at {re.escape(f'{path}:{w.lineno}')} runs while the "
                         "function is traced, not on each call: use ag.print", str(w.message))
    _give_again(w for w in caught if w not in prints)


@contextlib.contextmanager
def _recording():
    remembered = trace_warnings._warned
    trace_warnings._warned = set()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield caught
    finally:
        remembered |= trace_warnings._warned
        trace_warnings._warned = remembered


def _give_again(records):
    for w in records:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
