"""Lower `return` so that a function returns once, at its end.

A function whose only `return` is its last statement is left as it is. Otherwise,
after this pass, the function starts with `retval_ = ag__.UndefinedReturnValue()` and
ends with its only `return retval_`; each `return x` became `retval_ = x`. Returns in
tail position (nothing of the function runs after them, e.g. in the branches of a final
`if`) need nothing more; others also set `do_return = True` (initialized to False at
the top), the statements they skip are guarded by `if not do_return:` and loops that
contain them carry `not do_return` under `Basic.EXTRA_LOOP_TEST`. A function that may
end without returning gets an explicit `return None` first, so every path sets
`retval_`. A docstring stays the first statement, so the function keeps its `__doc__`.
"""
import gast
from autograph_py.converters import templates
from autograph_py.converters.break_statements import add_loop_test
from autograph_py.converters.jumps import JumpLowering, find_jumps, negate
from autograph_py.converters.transformer import Transformer


def _split_docstring(body):
    """([docstring statement] or [], the other statements)."""
    first = body[0]
    if (isinstance(first, gast.Expr) and isinstance(first.value, gast.Constant) and
            isinstance(first.value.value, str)):
        return body[:1], body[1:]
    return [], body


class ReturnTransformer(Transformer):
    def visit_FunctionDef(self, node):
        node = self.generic_visit(node)
        returns = find_jumps(node.body, gast.Return, enter_loops=True)
        if not returns or returns == [node.body[-1]]:
            return node
        namer = self.ctx.namer
        retval = namer.new_symbol('retval_', meaning='return value')
        do_return = []

        def flag():
            if not do_return:
                do_return.append(namer.new_symbol('do_return', meaning='return flag'))
            return do_return[0]

        def replace(ret, tail):
            value = ret.value or gast.Constant(value=None, kind=None)
            stmts = templates.replace('retval = value', retval=retval, value=value)
            if not tail:  # set after the value: evaluating it may raise, and not return
                stmts += templates.replace('flag = True', flag=flag())
            return stmts

        def on_loop(loop):
            add_loop_test(loop, negate(templates.replace_as_expression('f', f=flag())))

        lowering = JumpLowering(self.ctx, gast.Return, replace=replace, flag=flag,
                                enter_loops=True, on_loop=on_loop)
        docstring, body = _split_docstring(node.body)
        if not lowering.always_jumps(body):
            body = body + [self.locate(gast.Return(value=None), body[-1])]
        body = lowering.lower(body)
        prologue = templates.replace('retval = ag__.UndefinedReturnValue()', retval=retval)
        if do_return:
            prologue += templates.replace('flag = False', flag=do_return[0])
        epilogue = templates.replace('return retval', retval=retval)
        node.body = (docstring + self.locate(prologue, node) + body +
                     self.locate(epilogue, returns[-1]))
        return node


def transform(node, ctx):
    return ReturnTransformer(ctx).visit(node)
