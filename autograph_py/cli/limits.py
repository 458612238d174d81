"""What the command line refuses to convert, so that no input exhausts memory or the
stack: one-line errors instead of a hang or an internal error.

Contract:
- `MAX_INPUT_BYTES`: `read_limited(f, name)` returns at most that many bytes of an
  open binary file and raises `ConversionError` when there are more (it reads one byte
  past the limit, never the rest: `/dev/zero` is refused at once).
- `MAX_DEPTH`: `check_depth(tree, name)` raises `ConversionError` (message `TOO_DEEP`)
  at the first node nested deeper than that (expressions and statements counted
  alike), so the converters, which recurse over the tree, never meet such a tree;
  else it returns every node of the tree (its walk is the only one the command
  needs for its other checks of the whole file).
- `deep_recursion()`: a context in which Python's recursion limit allows the converters
  to walk a tree of `MAX_DEPTH` levels (their visitors take several frames per level).
"""

import contextlib
import sys

from autograph_py.converters import traversal
from autograph_py.converters.errors import ConversionError

MAX_INPUT_BYTES = 10 * 1024 * 1024  # ten times the largest file of the standard library
MAX_DEPTH = 500  # Python itself allows 200 nested parentheses and 100 indentation levels
_FRAMES_PER_LEVEL = 40  # measured worst case (nested `and`) is about 12; kept generous
TOO_DEEP = (f"nested too deeply (more than {MAX_DEPTH} levels of expressions and blocks); "
            "split the expression, e.g. with intermediate variables")


def read_limited(f, name):
    data = f.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise ConversionError(f"larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB, the most "
                              "autograph converts; is this a Python source file?", name, 1)
    return data


def check_depth(tree, name):
    # Iterative: the point is to not recurse over a deep tree. `at` is the innermost node
    # with a position (contexts such as Load have none).
    nodes = []
    stack = [(tree, 1, tree)]
    while stack:
        node, depth, at = stack.pop()
        nodes.append(node)
        at = node if "lineno" in node.__dict__ else at
        if depth > MAX_DEPTH:
            raise ConversionError(TOO_DEEP, name, getattr(at, "lineno", 1),
                                  getattr(at, "col_offset", 0) + 1)
        stack += [(child, depth + 1, at) for child in traversal.children(node)]
    return nodes


@contextlib.contextmanager
def deep_recursion():
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, MAX_DEPTH * _FRAMES_PER_LEVEL))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)
