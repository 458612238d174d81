"""List mutation as value-returning operations, so staged lists see the new value.

    l.append(x)      ->  l = ag__.list_append(l, x)
    x = l.pop(i)     ->  l, x = ag__.list_pop(l, i)
    l.pop(i)         ->  l = ag__.list_pop(l, i)[0]
    f(l.pop(i))      ->  f(((l := ag__.list_pop(l, i)), (l := l[0]))[0][1])

A pop inside a larger expression rebinds through `:=` where it stands (to the pair, then
to the list in it), so evaluation order is kept; not inside a lambda or a comprehension,
whose `:=` would not rebind the function's name (there it stays a method call).

Only for receivers that are plain names the function may rebind: its own locals
(parameters included) and names it declares `global` or `nonlocal`. Rebinding any other
name (a global or a closure variable only read here) would make it local to the function
and break every read of it, so `log.append(x)` on such a list stays a method call.
Attributes are left alone too (rebinding one could run a property setter); list
literals stay as they are.
"""
import gast
from autograph_py.converters import templates
from autograph_py.converters.analysis import activity, qual_names
from autograph_py.converters.transformer import Transformer


def _method_call(node, method):
    """The receiver Name of `name.method(...)` with positional args only, else None."""
    if (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and
            node.func.attr == method and isinstance(node.func.value, gast.Name) and
            not node.keywords and not any(isinstance(a, gast.Starred) for a in node.args)):
        return node.func.value
    return None


class ListTransformer(Transformer):
    def __init__(self, ctx):
        super().__init__(ctx)
        # Per enclosing function (innermost last): [the function, the names it may rebind
        # or None until a list method call asks for them].
        self.functions = []
        self.statement_calls = set()  # ids of calls visit_Expr/visit_Assign rewrite
        self.in_own_scope = 0  # depth of lambdas and comprehensions around the node

    def visit_FunctionDef(self, node):
        self.functions.append([node, None])
        node = self.generic_visit(node)
        self.functions.pop()
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def _rebindable(self):
        """The names the innermost function may rebind (computed once, when needed: most
        functions call no list method)."""
        entry = self.functions[-1]
        if entry[1] is None:
            scope = activity.function_scope(qual_names.resolve(entry[0]))
            entry[1] = scope.locals | scope.nonlocals | scope.globals
        return entry[1]

    def _receiver(self, call, method):
        receiver = _method_call(call, method)
        if receiver is None or not self.functions or receiver.id not in self._rebindable():
            return None
        return receiver

    def _own_scope(self, node):
        self.in_own_scope += 1
        node = self.generic_visit(node)
        self.in_own_scope -= 1
        return node

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = _own_scope
    visit_GeneratorExp = _own_scope

    def visit_Call(self, node):
        node = self.generic_visit(node)
        receiver = self._receiver(node, 'pop')
        if receiver is None or id(node) in self.statement_calls or self.in_own_scope:
            return node
        return templates.replace_as_expression(
            '((l := ag__.list_pop(l, args)), (l := l[0]))[0][1]', l=receiver, args=node.args)

    def visit_Expr(self, node):
        self.statement_calls.add(id(node.value))
        node = self.generic_visit(node)
        receiver = self._receiver(node.value, 'append')
        if receiver is not None and len(node.value.args) == 1:
            return templates.replace('l = ag__.list_append(l, x)', l=receiver,
                                     x=node.value.args[0])
        receiver = self._receiver(node.value, 'pop')
        if receiver is not None:
            return templates.replace('l = ag__.list_pop(l, args)[0]', l=receiver,
                                     args=node.value.args)
        return node

    def visit_Assign(self, node):
        if len(node.targets) == 1:
            self.statement_calls.add(id(node.value))
        node = self.generic_visit(node)
        receiver = self._receiver(node.value, 'pop')
        if receiver is None or len(node.targets) != 1:
            return node
        return templates.replace('l, target = ag__.list_pop(l, args)', l=receiver,
                                 target=node.targets[0], args=node.value.args)


def transform(node, ctx):
    return ListTransformer(ctx).visit(node)
