"""Route every call through `ag__.converted_call`.

    f(a, *args, k=b, **kw)  ->  ag__.converted_call(f, a, *args, k=b, **kw)

After this pass every call is a call of an `ag__` operator, except calls to `super()`
(its zero-argument form needs to run in the method's own frame). With
`ctx.recursive=False` (`to_graph(fn, recursive=False)`: convert `fn` only) calls are
left as written, so nothing `fn` calls is converted.
"""
import gast
from autograph_py.converters import templates
from autograph_py.converters.transformer import Transformer


def is_operator_call(node):
    func = node.func
    return (isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and
            func.value.id == 'ag__')


class CallTreeTransformer(Transformer):
    def visit_Call(self, node):
        node = self.generic_visit(node)
        if is_operator_call(node) or (isinstance(node.func, gast.Name) and
                                      node.func.id == 'super'):
            return node
        call = templates.replace_as_expression('ag__.converted_call(f)', f=node.func)
        call.args += node.args
        call.keywords = node.keywords
        return call


def transform(node, ctx):
    return CallTreeTransformer(ctx).visit(node) if ctx.recursive else node
