"""Lower `break` to a flag.

After this pass no `break` remains. A loop that contained one is preceded by
`break_ = False`, sets `break_ = True` where it broke, skips the rest of the iteration
(see `converters.jumps`) and carries `not break_` under `Basic.EXTRA_LOOP_TEST`, which
control flow checks before every iteration. Its `else` clause, if any, becomes
`if not break_: ...` after the loop.
"""
import gast
from autograph_py.converters import anno, templates
from autograph_py.converters.jumps import JumpLowering, find_jumps, negate
from autograph_py.converters.transformer import Transformer


def add_loop_test(loop, test):
    """Require `test` (as well as any earlier requirement) before each iteration."""
    anno.setanno(loop, anno.Basic.EXTRA_LOOP_TEST,
                 anno.getanno(loop, anno.Basic.EXTRA_LOOP_TEST, []) + [test])


class BreakTransformer(Transformer):
    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if not find_jumps(node.body, gast.Break, enter_loops=False):
            return node
        flag = self.ctx.namer.new_symbol('break_')
        lowering = JumpLowering(
            self.ctx, gast.Break, flag=lambda: flag,
            replace=lambda jump, tail: templates.replace('flag = True', flag=flag))
        node.body = lowering.lower(node.body) or [gast.Pass()]
        add_loop_test(node, negate(templates.replace_as_expression('flag', flag=flag)))
        result = templates.replace('flag = False', flag=flag) + [node]
        if node.orelse:
            result += templates.replace('''
                if not flag:
                    orelse
            ''', flag=flag, orelse=node.orelse)
            node.orelse = []
        return result

    visit_For = visit_While = _visit_loop


def transform(node, ctx):
    return BreakTransformer(ctx).visit(node)
