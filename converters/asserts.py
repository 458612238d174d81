"""`assert test, msg` -> `ag__.assert_stmt(test, lambda: msg)`.

The message stays lazy, as in Python; without one the thunk is `None`. After this
pass no `assert` statement remains.
"""
from autograph_py.converters import templates
from autograph_py.converters.transformer import Transformer


class AssertTransformer(Transformer):
    def visit_Assert(self, node):
        node = self.generic_visit(node)
        if node.msg is None:
            return templates.replace('ag__.assert_stmt(test, None)', test=node.test)
        return templates.replace('ag__.assert_stmt(test, msg)', test=node.test,
                                 msg=templates.thunk(node.msg))


def transform(node, ctx):
    return AssertTransformer(ctx).visit(node)
