"""Route every call through `ag__.converted`.

    f(a, *args, k=b, **kw)  ->  ag__.converted(f)(a, *args, k=b, **kw)

`ag__.converted(f)` is what to call in place of `f` (f itself, its conversion, or a
builtin's overload: autograph_py/conversion.py), and the call runs in the converted
function's own frame, as the original's does.

After this pass every call is a call of an `ag__` operator, except calls of the
builtins that read the frame calling them (`super()`, `globals()`, `locals()`, `vars()`,
`dir()`, `eval`, `exec`, `breakpoint()`), which must run in the converted function's own
frame (none of them is converted or overloaded); `locals()`,
`vars()` and `dir()` become `ag__.user_locals(locals(), names)` (`ag__.local_names` for
`dir()`), `names` the identifiers of the user's function, which leaves out what only
conversion put in the frame, and `eval(s)`/`exec(s)` get it as their namespace. The
analyses count such a call as reading the names it lists, so the blocks before it
carry them out. With
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


_LOCALS = {'locals': 'user_locals', 'vars': 'user_locals', 'dir': 'local_names'}
_FRAME_READERS = frozenset({'super', 'globals', 'locals', 'vars', 'dir', 'eval', 'exec',
                            'breakpoint'})


class CallTreeTransformer(Transformer):
    def visit_Call(self, node):
        node = self.generic_visit(node)
        name = node.func.id if isinstance(node.func, gast.Name) else None
        if name in _LOCALS and not node.args and not node.keywords:
            return self._user_locals(_LOCALS[name])
        if name in ('eval', 'exec') and len(node.args) == 1 and not node.keywords:
            # Its default namespace is the frame's locals, which `locals()` reads.
            node.args += [gast.Constant(value=None, kind=None),
                          self._user_locals('user_locals')]
            return node
        if is_operator_call(node) or name in _FRAME_READERS:
            return node
        node.func = templates.replace_as_expression('ag__.converted(f)', f=node.func)
        return node


    def _user_locals(self, operator):
        """`ag__.<operator>(locals(), names)`: the frame also holds what conversion
        made (the `ag__` alias, generated functions and flags, never named as a user's
        identifier: converters.naming; sentinels of names not bound yet), and the names
        tell the analyses what the call reads."""
        names = gast.Tuple(elts=[gast.Constant(value=n, kind=None)
                                 for n in sorted(self.ctx.census.identifiers)],
                           ctx=gast.Load())
        return templates.replace_as_expression(f'ag__.{operator}(locals(), names)',
                                               names=names)


def transform(node, ctx):
    return CallTreeTransformer(ctx).visit(node) if ctx.recursive else node
