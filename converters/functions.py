"""Nested functions and lambdas.

Nested `def`s are converted in place, each converter treating a nested function as a
scope of its own; lambdas only get the expression-level conversions (calls, ternaries,
boolean operators). This pass marks what must stay as the user wrote it:
nested functions decorated `@do_not_convert` (under any module alias), nested
generators and `async def`s (they run as Python: a generator's suspended frame and a
coroutine's event loop have no dataflow counterpart, so the function around them still
converts) and classes defined inside functions (their bodies are not function scopes)
are annotated `Basic.SKIP_PROCESSING`. The function being converted is never skipped
itself: a generator or coroutine there is refused by `unsupported`.

`is_generator(node)`: whether a def's own body yields (nested functions, lambdas and
classes do not count).
"""
import gast
from autograph_py.converters import anno, census, traversal
from autograph_py.converters.transformer import Transformer

DO_NOT_CONVERT = 'do_not_convert'
_YIELDS = (gast.Yield, gast.YieldFrom)
_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


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


def is_generator(node):
    stack = list(node.body)
    while stack:
        child = stack.pop()
        if isinstance(child, _YIELDS):
            return True
        if not isinstance(child, _SCOPES):
            stack += traversal.children(child)
    return False


class FunctionTransformer(Transformer):
    def __init__(self, ctx, root):
        super().__init__(ctx)
        self.root = root

    def visit_FunctionDef(self, node):
        if is_do_not_convert(node) or node is not self.root and is_generator(node):
            anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
            return node
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node):
        if node is self.root:
            return node
        anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
        return node

    def visit_ClassDef(self, node):
        anno.setanno(node, anno.Basic.SKIP_PROCESSING, True)
        return node


def transform(node, ctx):
    if not (census.may_hold(ctx, (gast.ClassDef, gast.AsyncFunctionDef) + _YIELDS)
            or census.mentions(ctx, DO_NOT_CONVERT)):
        return node
    return FunctionTransformer(ctx, node).visit(node)
