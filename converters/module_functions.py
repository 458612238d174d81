"""The functions of a parsed file that conversion converts one by one.

Contract of `module_functions(module)`: yields `(qualified name, statements, index)`,
`statements[index]` being a `def` or `async def` that is not inside another function:
- at the top level, and in classes at any depth (`f`, `Class.method`,
  `Outer.Inner.method`);
- under compound statements at any depth, in the module or in a class body (`if`/`elif`/
  `else`, `try`/`except`/`else`/`finally`, `with`, `for`, `while`, `match`): real code
  defines fallbacks as `try: from _c import f` / `except ImportError: def f(...)`.
  Compound statements add nothing to the qualified name.
Functions nested in functions are not listed: they are converted through the function
around them (and so are classes defined in functions, which stay as written there).
The walk is in source order and depends only on the tree's shape, so walking a file and
a copy of it pairs each function with its copy. The caller decides what to do with
`async def`s (conversion refuses them).
"""
import gast

_DEFS = (gast.FunctionDef, gast.AsyncFunctionDef)
_BLOCK_FIELDS = ("body", "orelse", "finalbody")


def module_functions(module):
    yield from _walk(module.body, "")


def _walk(statements, prefix):
    for index, node in enumerate(statements):
        if isinstance(node, _DEFS):
            yield f"{prefix}{node.name}", statements, index
        elif isinstance(node, gast.ClassDef):
            yield from _walk(node.body, f"{prefix}{node.name}.")
        else:
            for block in _blocks(node):
                yield from _walk(block, prefix)


def _blocks(node):
    """The statement lists of a compound statement (none for a simple one)."""
    blocks = [getattr(node, field, None) for field in _BLOCK_FIELDS]
    blocks += [handler.body for handler in getattr(node, "handlers", ())]
    blocks += [case.body for case in getattr(node, "cases", ())]
    return [block for block in blocks if isinstance(block, list)]
