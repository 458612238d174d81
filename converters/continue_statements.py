"""Lower `continue`.

After this pass no `continue` remains. A `continue` that ends the iteration anyway
disappears, and an `if` one of whose branches ends with `continue` takes the rest of the
loop body into its other branch, so the common `if c: continue` becomes `if not c: ...`
without a flag. Other cases set `continue_ = True` (reset at the top of the body) and
guard the statements a `continue` skips with `if not continue_:`.
"""
import gast
from autograph_py.converters import census, templates
from autograph_py.converters.jumps import JumpLowering, find_jumps
from autograph_py.converters.transformer import Transformer


class ContinueTransformer(Transformer):
    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if not find_jumps(node.body, gast.Continue, enter_loops=False):
            return node
        flag = []

        def get_flag():
            if not flag:
                flag.append(self.ctx.namer.new_symbol('continue_', meaning='continue flag'))
            return flag[0]

        def replace(jump, tail):
            return [] if tail else templates.replace('flag = True', flag=get_flag())

        lowering = JumpLowering(self.ctx, gast.Continue, replace=replace, flag=get_flag)
        body = lowering.lower(node.body)
        if flag:
            body = self.locate(templates.replace('flag = False', flag=flag[0]), node) + body
        node.body = body or [self.locate(gast.Pass(), node)]
        return node

    visit_For = visit_While = _visit_loop


def transform(node, ctx):
    if not census.may_hold(ctx, (gast.Continue,)):
        return node
    return ContinueTransformer(ctx).visit(node)
