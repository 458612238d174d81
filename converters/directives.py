"""Loop directives: `ag.set_loop_options(maximum_iterations=N)`.

A call to `set_loop_options` (under any module alias) as the first statement of a loop
body is removed; after this pass its keywords are under `Basic.LOOP_OPTIONS` of the
loop and become the loop's `opts` dict. Anywhere else such a call is an error: it would
silently do nothing.
"""
import gast
from autograph_py.converters import anno
from autograph_py.converters.transformer import Transformer

DIRECTIVE = 'set_loop_options'


def _is_directive(stmt):
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return False
    func = stmt.value.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, 'id', None)
    return name == DIRECTIVE


class DirectivesTransformer(Transformer):
    def _visit_loop(self, node):
        if node.body and _is_directive(node.body[0]):
            anno.setanno(node, anno.Basic.LOOP_OPTIONS, node.body[0].value.keywords)
            node.body = node.body[1:] or [self.locate(gast.Pass(), node)]
        return self.generic_visit(node)

    visit_For = visit_While = _visit_loop

    def visit_Expr(self, node):
        if _is_directive(node):
            raise self.ctx.error(node, f'{DIRECTIVE}() must be the first statement of a '
                                       'loop body')
        return self.generic_visit(node)


def transform(node, ctx):
    return DirectivesTransformer(ctx).visit(node)
