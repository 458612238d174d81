"""List mutation as value-returning operations, so staged lists see the new value.

    l.append(x)      ->  l = ag__.list_append(l, x)
    x = l.pop(i)     ->  l, x = ag__.list_pop(l, i)
    l.pop(i)         ->  l = ag__.list_pop(l, i)[0]
    f(l.pop(i))      ->  f(((l := ag__.list_pop(l, i)), (l := l[0]))[0][1])

A pop inside a larger expression rebinds through `:=` where it stands (to the pair, then
to the list in it), so evaluation order is kept; not inside a lambda or a comprehension,
whose `:=` would not rebind the function's name (there it stays a method call).

Only for calls with a list's arguments (`.append(x)`, `.pop()`, `.pop(i)`: no keyword, no
`*args`; `d.pop(key, default)` stays a method call) and for receivers that are plain
names the function may rebind: its own locals
(parameters included) and names it declares `global` or `nonlocal`. Rebinding any other
name (a global or a closure variable only read here) would make it local to the function
and break every read of it. Attributes are left alone too (rebinding one could run a
property setter); list literals stay as they are.

A list the converted code did not make (a global, or a closure variable of a function
outside the tree being converted) grows only while the function is traced, so its
appends go through `ag__.outer_list_append(l, x, 'l')`, which warns then:

    log.append(x)    ->  ag__.outer_list_append(log, x, 'log')
                         (log = ... when the function declares it global or nonlocal)

A list some function of the tree binds (a nested function appending to its enclosing
function's list) is made anew on each trace: `out.append(x)` there stays a method call.
"""
import gast
from autograph_py.converters import census, templates
from autograph_py.converters.analysis import activity
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

    @staticmethod
    def _scope(entry):
        """The scope of a function of `self.functions` (computed once, when needed: most
        functions call no list method)."""
        if entry[1] is None:
            entry[1] = activity.function_scope(entry[0])
        return entry[1]

    def _rebindable(self):
        """The names the innermost function may rebind."""
        scope = self._scope(self.functions[-1])
        return scope.locals | scope.nonlocals | scope.globals

    def _made_outside(self, name):
        """Whether `name` in the innermost function is a global or a closure variable of a
        function outside the tree being converted (no function of the tree binds it)."""
        for entry in reversed(self.functions):
            scope = self._scope(entry)
            if name in scope.globals:
                return True
            if name in scope.locals:
                return False
        return True

    def _receiver(self, call, method):
        receiver = _method_call(call, method)
        if receiver is None or not self.functions or receiver.id not in self._rebindable():
            return None
        return receiver

    def _pop_receiver(self, call):
        """The receiver of a `.pop` with a list's arguments (at most an index): a pop with
        more (`d.pop(key, default)`) is no list's, so it stays a method call."""
        receiver = self._receiver(call, 'pop')
        return receiver if receiver is not None and len(call.args) <= 1 else None

    def _own_scope(self, node):
        self.in_own_scope += 1
        node = self.generic_visit(node)
        self.in_own_scope -= 1
        return node

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = _own_scope
    visit_GeneratorExp = _own_scope

    def visit_Call(self, node):
        node = self.generic_visit(node)
        receiver = self._pop_receiver(node)
        if receiver is None or id(node) in self.statement_calls or self.in_own_scope:
            return node
        return templates.replace_as_expression(
            '((l := ag__.list_pop(l, args)), (l := l[0]))[0][1]', l=receiver, args=node.args)

    def visit_Expr(self, node):
        self.statement_calls.add(id(node.value))
        node = self.generic_visit(node)
        append = self._append(node.value)
        if append is not None:
            return append
        receiver = self._pop_receiver(node.value)
        if receiver is not None:
            return templates.replace('l = ag__.list_pop(l, args)[0]', l=receiver,
                                     args=node.value.args)
        return node

    def _append(self, call):
        """The statement(s) replacing the statement `l.append(x)`, or None."""
        receiver = _method_call(call, 'append')
        if receiver is None or not self.functions or len(call.args) != 1:
            return None
        rebindable = receiver.id in self._rebindable()
        if self._made_outside(receiver.id):
            # Rebound when it may be: a staged loop may turn it into a tensor list.
            template = ('l = ag__.outer_list_append(l, x, name)' if rebindable else
                        'ag__.outer_list_append(l, x, name)')
        elif rebindable:
            template = 'l = ag__.list_append(l, x)'
        else:
            return None
        return templates.replace(template, l=receiver, x=call.args[0],
                                 name=gast.Constant(receiver.id, None))

    def visit_Assign(self, node):
        if len(node.targets) == 1:
            self.statement_calls.add(id(node.value))
        node = self.generic_visit(node)
        receiver = self._pop_receiver(node.value)
        if receiver is None or len(node.targets) != 1:
            return node
        return templates.replace('l, target = ag__.list_pop(l, args)', l=receiver,
                                 target=node.targets[0], args=node.value.args)


def transform(node, ctx):
    if not census.may_hold(ctx, attributes=('append', 'pop')):
        return node
    return ListTransformer(ctx).visit(node)
