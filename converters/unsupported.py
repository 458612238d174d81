"""Reject what the pipeline cannot convert, with the user's file and line.

After this pass the function contains no generator (`yield`) and no coroutine
(`async`, `await`), except inside nested functions left unconverted. Constructs that are
only a problem in some positions (jumps inside `try`, misplaced directives) are reported
by the converter that meets them.
"""
import gast
from autograph_py.converters import anno, census, traversal

_MESSAGES = {
    gast.Yield: 'generator functions (yield) are not supported',
    gast.YieldFrom: 'generator functions (yield from) are not supported',
    gast.Await: 'await is not supported',
    gast.AsyncFunctionDef: 'async def is not supported',
    gast.AsyncFor: 'async for is not supported',
    gast.AsyncWith: 'async with is not supported',
}


def transform(node, ctx):
    if not census.may_hold(ctx, _MESSAGES):
        return node
    todo = [node]
    while todo:  # in source order: the first unsupported construct is the one reported
        n = todo.pop()
        if anno.hasanno(n, anno.Basic.SKIP_PROCESSING):
            continue
        if type(n) in _MESSAGES:
            raise ctx.error(n, _MESSAGES[type(n)])
        todo += reversed(traversal.children(n))
    return node
