"""Loop `else` clauses of loops without `break`.

Runs after break lowering, so no loop has a `break` any more and its `else` always runs
when the loop ends: after this pass no loop has an `else`; its statements follow the
loop.
"""
from autograph_py.converters.transformer import Transformer


class LoopElseTransformer(Transformer):
    def _visit_loop(self, node):
        node = self.generic_visit(node)
        orelse, node.orelse = node.orelse, []
        return [node] + orelse if orelse else node

    visit_For = visit_While = _visit_loop


def transform(node, ctx):
    return LoopElseTransformer(ctx).visit(node)
