"""The functions of a file that `autograph convert` leaves as written without trying, each
with the reason, so that none is skipped silently.

Contract of `skipped_functions(module, name) -> [ConversionError]` (in line order):
- `async def` at the top level or in a top-level class: "not converted: ... async";
- a function in a class nested in another class, or defined under a module-level
  compound statement (`if`, `try`, `with`, `for`, `while`, `match`): "not converted",
  with where to move it.
Functions nested in functions are not listed: they are converted through their parent.
Each error's message starts with "not converted: " and its location is the `def` line.

`is_generator(node)`: the function's own body yields (nested functions and lambdas do
not count). The command leaves generators as written (they are Python-side helpers
such as a `@contextmanager`) with a note, `generator_note(node, qualname, name)`.
"""

import gast

from autograph_py.converters import traversal
from autograph_py.converters.errors import ConversionError

_DEFS = (gast.FunctionDef, gast.AsyncFunctionDef)
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
_TOP_LEVEL = "autograph converts top-level functions and methods of top-level classes"


def skipped_functions(module, name):
    found = []

    def skip(node, qualname, reason):
        found.append(ConversionError(f"not converted: {qualname}() {reason}", name,
                                     node.lineno))

    def visit_class(cls, prefix, reason):
        """Methods of `cls`; `reason` is None when they are converted."""
        for child in cls.body:
            qualname = f"{prefix}{cls.name}.{getattr(child, 'name', '')}"
            if isinstance(child, _DEFS) and reason is not None:
                skip(child, qualname, reason)
            elif isinstance(child, gast.AsyncFunctionDef):
                skip(child, qualname, "is async; autograph converts only plain functions")
            elif isinstance(child, gast.ClassDef):
                visit_class(child, f"{prefix}{cls.name}.", reason or
                            f"is a method of a nested class; {_TOP_LEVEL}")

    def visit_block(statements, under):
        """Top-level statements, or those of a module-level compound statement `under`."""
        where = f"is defined under a module-level '{under}'; {_TOP_LEVEL}"
        for node in statements:
            if isinstance(node, _DEFS) and under is not None:
                skip(node, node.name, where)
            elif isinstance(node, gast.AsyncFunctionDef):
                skip(node, node.name, "is async; autograph converts only plain functions")
            elif isinstance(node, gast.ClassDef):
                visit_class(node, "", where if under is not None else None)
            elif not isinstance(node, gast.FunctionDef):
                for block in _blocks(node):
                    visit_block(block, under or _keyword(node))

    visit_block(module.body, None)
    return sorted(found, key=lambda e: e.lineno)


def _blocks(node):
    """The statement lists of a compound statement (none for a simple one)."""
    blocks = [getattr(node, field, None) for field in ("body", "orelse", "finalbody")]
    blocks += [handler.body for handler in getattr(node, "handlers", [])]
    blocks += [case.body for case in getattr(node, "cases", [])]
    return [b for b in blocks if isinstance(b, list) and b and isinstance(b[0], gast.stmt)]


def _keyword(node):
    return {gast.AsyncFor: "async for", gast.AsyncWith: "async with"}.get(
        type(node), type(node).__name__.lower())


def is_generator(node):
    stack = list(node.body)
    while stack:
        child = stack.pop()
        if isinstance(child, (gast.Yield, gast.YieldFrom)):
            return True
        if not isinstance(child, _SCOPES):
            stack += traversal.children(child)
    return False


def generator_note(node, qualname, name):
    return f"{name}:{node.lineno}: note: {qualname}() is a generator; left as written " \
           "(generators run as Python)"
