"""Boolean operators and comparison chains as operator calls that keep short-circuit.

    a and b and c  ->  ag__.and_(lambda: a, lambda: b, lambda: c)
    a or b         ->  ag__.or_(lambda: a, lambda: b)
    not a          ->  ag__.not_(a)
    a < b <= c     ->  ag__.compare_chain(a, '<', lambda: b, '<=', lambda: c)

`compare_chain` evaluates each operand once, left to right, stopping at the first false
comparison, like Python. Single comparisons stay as they are. After this pass no
BoolOp, `not` or chained Compare remains.
"""
import gast
from autograph_py.converters import templates
from autograph_py.converters.transformer import Transformer

_COMPARE_OPS = {
    gast.Eq: '==', gast.NotEq: '!=', gast.Lt: '<', gast.LtE: '<=', gast.Gt: '>',
    gast.GtE: '>=', gast.Is: 'is', gast.IsNot: 'is not', gast.In: 'in',
    gast.NotIn: 'not in',
}


def _thunk(expr):
    return templates.replace_as_expression('lambda: expr', expr=expr)


def _string(value):
    return gast.Constant(value=value, kind=None)


class LogicalExpressionTransformer(Transformer):
    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        operator = 'and_' if isinstance(node.op, gast.And) else 'or_'
        call = templates.replace_as_expression(f'ag__.{operator}()')
        call.args = [_thunk(v) for v in node.values]
        return call

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return templates.replace_as_expression('ag__.not_(x)', x=node.operand)

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        call = templates.replace_as_expression('ag__.compare_chain(x)', x=node.left)
        for op, operand in zip(node.ops, node.comparators):
            call.args += [_string(_COMPARE_OPS[type(op)]), _thunk(operand)]
        return call


def transform(node, ctx):
    return LogicalExpressionTransformer(ctx).visit(node)
