"""`a if c else b` -> `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`.

The last argument is the user's source of the expression, for error messages. After
this pass no IfExp remains (nested ternaries nest `if_exp` calls).
"""
import ast

import gast
from autograph_py.converters import census, templates
from autograph_py.converters.transformer import Transformer


class ConditionalExpressionTransformer(Transformer):
    def visit_IfExp(self, node):
        source = ast.unparse(gast.gast_to_ast(node))
        node = self.generic_visit(node)
        return templates.replace_as_expression(
            'ag__.if_exp(test, body, orelse, source)', test=node.test,
            body=templates.thunk(node.body, self.ctx.namer),
            orelse=templates.thunk(node.orelse, self.ctx.namer),
            source=gast.Constant(value=source, kind=None))


def transform(node, ctx):
    if not census.may_hold(ctx, (gast.IfExp,)):
        return node
    return ConditionalExpressionTransformer(ctx).visit(node)
