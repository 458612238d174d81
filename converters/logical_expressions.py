"""Boolean operators and comparison chains as operator calls that keep short-circuit.

    a and b and c  ->  ag__.and_(lambda: a, lambda: b, lambda: c)
    a or b         ->  ag__.or_(lambda: a, lambda: b)
    not a          ->  ag__.not_(a)
    a < b <= c     ->  ag__.compare_chain(a, '<', lambda: b, '<=', lambda: c)

`compare_chain` evaluates each operand once, left to right, stopping at the first false
comparison, like Python. Single comparisons stay as they are, except `in` / `not in`
(`x in t` -> `ag__.compare_chain(x, 'in', lambda: t)`), which Python would answer with
`bool()` of a symbolic tensor. After this pass no BoolOp, `not`, chained Compare or
`in` / `not in` remains.

In a test position only the truth of `a or b` matters, so there the call gets
`test=True` and a staged `or_` may decide on truth values where the operands' dtypes
differ (`if x <= 0 or n + 1:`). Test positions: the condition of `if_stmt`, `if_exp`
and `assert_stmt` (control_flow, conditional_expressions and asserts run first), the
value a `while_stmt` test or a `for_stmt` extra test returns, the operand of `not`, and
the operands of a BoolOp in a test position.
"""
import gast
from autograph_py.converters import lazy_operands, templates, traversal
from autograph_py.converters.transformer import Transformer

_COMPARE_OPS = {
    gast.Eq: '==', gast.NotEq: '!=', gast.Lt: '<', gast.LtE: '<=', gast.Gt: '>',
    gast.GtE: '>=', gast.Is: 'is', gast.IsNot: 'is not', gast.In: 'in',
    gast.NotIn: 'not in',
}


def _string(value):
    return gast.Constant(value=value, kind=None)


# Operator calls whose argument at the given position is a condition, and those whose
# argument there names (or is) a function returning a condition.
_CONDITION_ARG = {'if_stmt': 0, 'if_exp': 0, 'assert_stmt': 0}
_TEST_FUNCTION_ARG = {'while_stmt': 0, 'for_stmt': 1}


def _operator_arg(node, positions):
    if (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and
            isinstance(node.func.value, gast.Name) and node.func.value.id == 'ag__' and
            node.func.attr in positions and len(node.args) > positions[node.func.attr]):
        return node.args[positions[node.func.attr]]
    return None


def _test_functions(tree):
    """The names of the functions whose returned value is a loop's test (`while_stmt`'s
    first argument, `for_stmt`'s second): control flow calls these operators in
    expression statements, so only statements are searched (this pass runs on the
    largest tree). Generated names never clash (converters.naming): a name finds its
    function."""
    names = set()
    for node in traversal.block_items(tree):
        if isinstance(node, gast.Expr):
            function = _operator_arg(node.value, _TEST_FUNCTION_ARG)
            if isinstance(function, gast.Name):
                names.add(function.id)
    return names


class LogicalExpressionTransformer(Transformer):
    def __init__(self, ctx, test_functions):
        super().__init__(ctx)
        self._test_functions = test_functions
        self._tests = set()  # ids of the expressions whose value is only tested for truth

    def visit_FunctionDef(self, node):
        self.mark_test_returns(node)
        return self.generic_visit(node)

    def mark_test_returns(self, node):
        """Marks the values a loop's test function returns as tests."""
        if node.name in self._test_functions:
            self._tests.update(id(s.value) for s in node.body
                               if isinstance(s, gast.Return) and s.value is not None)

    def visit_Call(self, node):
        # Marked before the arguments are visited, as a test function's return before
        # its body.
        condition = _operator_arg(node, _CONDITION_ARG)
        if condition is not None:
            self._tests.add(id(condition))
        function = _operator_arg(node, _TEST_FUNCTION_ARG)
        if isinstance(function, gast.Lambda):
            self._tests.add(id(function.body))
        return self.generic_visit(node)

    def visit_BoolOp(self, node):
        in_test = id(node) in self._tests
        if in_test:
            self._tests.update(id(v) for v in node.values)
        node = self.generic_visit(node)
        operator = 'and_' if isinstance(node.op, gast.And) else 'or_'
        call = templates.replace_as_expression(f'ag__.{operator}()')
        call.args = [templates.thunk(v, self.ctx.namer) for v in node.values]
        if in_test:
            call.keywords = [gast.keyword(arg='test', value=gast.Constant(value=True,
                                                                           kind=None))]
        return call

    def visit_UnaryOp(self, node):
        if not isinstance(node.op, gast.Not):
            return self.generic_visit(node)
        self._tests.add(id(node.operand))
        node = self.generic_visit(node)
        return templates.replace_as_expression('ag__.not_(x)', x=node.operand)

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        # `in` calls `__contains__`, which Python coerces to bool: a symbolic container
        # must be asked through the operator, which stages the test instead.
        if len(node.ops) < 2 and not isinstance(node.ops[0], (gast.In, gast.NotIn)):
            return node
        call = templates.replace_as_expression('ag__.compare_chain(x)', x=node.left)
        for op, operand in zip(node.ops, node.comparators):
            call.args += [_string(_COMPARE_OPS[type(op)]),
                          templates.thunk(operand, self.ctx.namer)]
        return call


class _GeneratedTests(Transformer):
    """Rewrites what lowering jumps generated, when the user wrote nothing to rewrite:
    then the only boolean operators and `not`s are in the tests control flow made
    (`not flag`, `not break_ and test`), which are the condition of an operator call
    statement (`ag__.if_stmt(test, ...)`) or the value a loop's test function returns.
    Only statements are walked (the largest tree of the pipeline, mostly expressions
    with nothing to rewrite); those tests are rewritten by `expressions`."""

    def __init__(self, ctx, expressions):
        super().__init__(ctx)
        self.expressions = expressions  # a LogicalExpressionTransformer
        self._tests = expressions._tests  # shared: what it marks, this one reads

    def visit_FunctionDef(self, node):
        self.expressions.mark_test_returns(node)
        return self.generic_visit(node)

    def visit_Return(self, node):
        if node.value is not None and id(node.value) in self._tests:
            node.value = self.expressions.visit(node.value)
        return node

    def visit_Expr(self, node):
        call = node.value
        condition = _operator_arg(call, _CONDITION_ARG)
        if condition is not None:
            self._tests.add(id(condition))
            call.args[_CONDITION_ARG[call.func.attr]] = self.expressions.visit(condition)
        function = _operator_arg(call, _TEST_FUNCTION_ARG)
        if isinstance(function, gast.Lambda):
            self._tests.add(id(function.body))
            function.body = self.expressions.visit(function.body)
        return node


# The flags lowered jumps leave, whose loop tests and guards are `not flag`.
_JUMP_FLAGS = ('break flag', 'continue flag', 'return flag')


def transform(node, ctx):
    # Nothing to rewrite unless the user wrote a boolean operator, `not`, a chain or an
    # `in` (the census tells), or a jump was lowered: to a flag, or (a `continue` ending
    # a branch) by negating its `if`'s test. Where `lazy_operands` ran, the tests it
    # moved (`not break_ and test` into a thunk) may be anywhere: the full walk.
    census = ctx.census
    expressions = LogicalExpressionTransformer(ctx, _test_functions(node))
    if census is None or census.logical or lazy_operands.may_run(ctx):
        return expressions.visit(node)
    if census.has_any((gast.Continue,)) or any(ctx.namer.invented(m) for m in _JUMP_FLAGS):
        return _GeneratedTests(ctx, expressions).visit(node)
    return node
