"""Loads of names that may still hold `ag__.Undefined`: `x` -> `ag__.ld(x)`.

Control flow marks those loads (`Basic.MAY_BE_UNDEFINED`) while it introduces the
`Undefined` sentinels; this pass wraps them so reading an unbound name fails with the
name in the message. Every other load stays bare.
"""
import gast
from autograph_py.converters import anno, templates
from autograph_py.converters.transformer import Transformer


class VariableTransformer(Transformer):
    def visit_Name(self, node):
        if anno.hasanno(node, anno.Basic.MAY_BE_UNDEFINED) and isinstance(node.ctx,
                                                                          gast.Load):
            return templates.replace_as_expression('ag__.ld(x)', x=node.id)
        return node


def transform(node, ctx):
    return VariableTransformer(ctx).visit(node)
