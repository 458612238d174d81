"""Directives: `ag.set_loop_options(...)` and `ag.set_element_type(l, dtype, shape)`.

A call to `set_loop_options` (under any module alias) as the first statement of a loop
body is removed; after this pass its keywords (`maximum_iterations`, `shape_invariants`)
are under `Basic.LOOP_OPTIONS` of the loop and become the loop's `opts` dict. Anywhere
else such a call is an error: it would silently do nothing.
A statement `set_element_type(l, ...)` becomes `l = ag__.set_element_type(l, ...)`, so
the operator can rebind the list it marks; its first argument must be a name.
"""
import gast
from autograph_py.converters import anno, census
from autograph_py.converters.transformer import Transformer

DIRECTIVE = 'set_loop_options'
ELEMENT_TYPE = 'set_element_type'


def _is_directive(stmt, directive=DIRECTIVE):
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return False
    func = stmt.value.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, 'id', None)
    return name == directive


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
        if _is_directive(node, ELEMENT_TYPE):
            return self._element_type(node)
        return self.generic_visit(node)

    def _element_type(self, node):
        call = node.value
        if not (call.args and isinstance(call.args[0], gast.Name)):
            raise self.ctx.error(node, f'{ELEMENT_TYPE}() marks a list held by a variable: '
                                       'its first argument must be a name')
        target = gast.Name(id=call.args[0].id, ctx=gast.Store(), annotation=None,
                           type_comment=None)
        func = gast.Attribute(value=gast.Name(id='ag__', ctx=gast.Load(), annotation=None,
                                              type_comment=None),
                              attr=ELEMENT_TYPE, ctx=gast.Load())
        assign = gast.Assign(targets=[target], value=gast.Call(
            func=func, args=call.args, keywords=call.keywords), type_comment=None)
        return self.locate(assign, node)


def transform(node, ctx):
    if not census.mentions(ctx, DIRECTIVE, ELEMENT_TYPE):
        return node
    return DirectivesTransformer(ctx).visit(node)
