"""Nested functions and lambdas.

Nested `def`s are converted in place, each converter treating a nested function as a
scope of its own; lambdas only get the expression-level conversions (calls, ternaries,
boolean operators). This pass marks what must stay as the user wrote it:
nested functions decorated `@do_not_convert` (under any module alias) and classes
defined inside functions (their bodies are not function scopes) are annotated
`Basic.SKIP_PROCESSING`.
"""
import gast
from autograph_py.converters import anno, census
from autograph_py.converters.transformer import Transformer

DO_NOT_CONVERT = 'do_not_convert'


def is_do_not_convert(function_node):
    """Whether a def is decorated with `do_not_convert`, `ag.do_not_convert`, ..."""
    for decorator in function_node.decorator_list:
        if isinstance(decorator, gast.Call):
            decorator = decorator.func
        name = (decorator.attr if isinstance(decorator, gast.Attribute)
                else getattr(decorator, 'id', None))
        if name == DO_NOT_CONVERT:
            return True
    return False


class FunctionTransformer(Transformer):
    def visit_FunctionDef(self, node):
        if is_do_not_convert(node):
            anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
            return node
        return self.generic_visit(node)

    def visit_ClassDef(self, node):
        anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
        return node


def transform(node, ctx):
    if not (census.may_hold(ctx, (gast.ClassDef,)) or census.mentions(ctx, DO_NOT_CONVERT)):
        return node
    return FunctionTransformer(ctx).visit(node)
