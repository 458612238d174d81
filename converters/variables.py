"""Loads of names that may still hold `ag__.Undefined`: `x` -> `ag__.ld(x)`.

Control flow marks those loads (`Basic.MAY_BE_UNDEFINED`) while it introduces the
`Undefined` sentinels; this pass wraps them so reading an unbound name fails with the
name in the message, as Python fails: a function's own load as `ag__.ld(x)`
(UnboundLocalError), a closure's (the mark says 'free') as `ag__.ld(x, free=True)`
(NameError). Every other load stays bare. A function control flow did not mark
`Basic.MARKED_LOADS` has no marked load: it is not walked.
"""
import gast
from autograph_py.converters import anno, templates
from autograph_py.converters.transformer import Transformer


class VariableTransformer(Transformer):
    def visit_Name(self, node):
        kind = anno.getanno(node, anno.Basic.MAY_BE_UNDEFINED)
        if kind is None or not isinstance(node.ctx, gast.Load):
            return node
        if kind == 'free':
            return templates.replace_as_expression('ag__.ld(x, free=True)', x=node.id)
        return templates.replace_as_expression('ag__.ld(x)', x=node.id)


def transform(node, ctx):
    if not anno.hasanno(node, anno.Basic.MARKED_LOADS):
        return node
    return VariableTransformer(ctx).visit(node)
