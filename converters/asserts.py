"""`assert test, msg` -> `ag__.assert_stmt(test, lambda: msg, 'test')`.

The message stays lazy, as in Python; without one the thunk is `None`. The test's
source text is passed too, so a staged assert's failure can quote the condition. After
this pass no `assert` statement remains.
"""
import ast

import gast
from autograph_py.converters import census, templates
from autograph_py.converters.transformer import Transformer


class AssertTransformer(Transformer):
    def visit_Assert(self, node):
        source = gast.Constant(value=ast.unparse(gast.gast_to_ast(node.test)), kind=None)
        node = self.generic_visit(node)
        msg = gast.Constant(value=None, kind=None) if node.msg is None else \
            templates.thunk(node.msg, self.ctx.namer)
        return templates.replace('ag__.assert_stmt(test, msg, source)', test=node.test,
                                 msg=msg, source=source)


def transform(node, ctx):
    if not census.may_hold(ctx, (gast.Assert,)):
        return node
    return AssertTransformer(ctx).visit(node)
