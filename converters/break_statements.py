"""Lower `break` to a flag, and loop `else` clauses to plain statements.

After this pass no `break` remains and no loop has an `else`. A loop that contained a
`break` is preceded by `break_ = False`, sets `break_ = True` where it broke, skips the
rest of the iteration (see `converters.jumps`), carries `not break_` under
`Basic.EXTRA_LOOP_TEST` (control flow checks it before every iteration) and is marked
`Basic.BREAK_LOWERED` (it may end although its test is a true constant). Its `else`
clause, if any, becomes `if not break_: ...` after the loop; the `else` of a loop without
`break` always runs when the loop ends, so it simply follows the loop.

Loops are handled innermost first, and an inner loop's `else` leaves it before the
enclosing loop is lowered: a `break` there belongs to the enclosing loop.
"""
import gast
from autograph_py.converters import anno, census, templates
from autograph_py.converters.jumps import JumpLowering, find_jumps, negate
from autograph_py.converters.transformer import Transformer


def add_loop_test(loop, test):
    """Require `test` (as well as any earlier requirement) before each iteration."""
    anno.setanno(loop, anno.Basic.EXTRA_LOOP_TEST,
                 anno.getanno(loop, anno.Basic.EXTRA_LOOP_TEST, []) + [test])


class BreakTransformer(Transformer):
    def _visit_loop(self, node):
        node = self.generic_visit(node)
        orelse, node.orelse = node.orelse, []
        if not find_jumps(node.body, gast.Break, enter_loops=False):
            return [node] + orelse if orelse else node
        flag = self.ctx.namer.new_symbol('break_', meaning='break flag')
        lowering = JumpLowering(
            self.ctx, gast.Break, flag=lambda: flag,
            replace=lambda jump, tail: templates.replace('flag = True', flag=flag))
        node.body = lowering.lower(node.body) or [gast.Pass()]
        add_loop_test(node, negate(templates.replace_as_expression('flag', flag=flag)))
        anno.setanno(node, anno.Basic.BREAK_LOWERED, True)
        result = templates.replace('flag = False', flag=flag) + [node]
        if orelse:
            result += templates.replace('''
                if not flag:
                    orelse
            ''', flag=flag, orelse=orelse)
        return result

    visit_For = visit_While = _visit_loop


def transform(node, ctx):
    if not (census.may_hold(ctx, (gast.Break,)) or ctx.census.loop_else):
        return node
    return BreakTransformer(ctx).visit(node)
