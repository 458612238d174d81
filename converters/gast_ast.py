"""Fast conversion between gast and the standard library's `ast`.

`ast_to_gast(tree)` and `gast_to_ast(tree)` return the trees `gast.ast_to_gast` and
`gast.gast_to_ast` return (same classes, fields, values and locations), several times
faster: gast's translators go through `ast.NodeTransformer` with a dict comprehension
and a `hasattr` per field of every node, which made printing a converted file cost as
much as converting it. Here each node class gets its plan once (the target class, its
fields and attributes) and nodes are filled through `__dict__`.

What differs between the two trees on Python 3.8-3.11 (gast 0.7's rules, kept exactly):
a parameter is an `ast.arg` but a `gast.Name` in the `Param` context; `Name` has
`annotation` and `type_comment` in gast; an except handler's name is a `str` in ast and
a `Name` in gast; gast's function and class definitions have `type_params`; gast drops
an `Assign`'s `type_comment` on the way back; a gast node without an ast class (or the
reverse) becomes None. Other Python versions use gast's own translators.
"""
import ast
import functools
import sys

import gast
from autograph_py.converters import nodes

_AST = ast.AST
_new_node = _AST.__new__


def _copy_location(new, old):
    """`ast.copy_location` (gast's special cases use it): a None start is not copied."""
    fields, new_fields = old.__dict__, new.__dict__
    if fields.get('lineno') is not None:
        new_fields['lineno'] = fields['lineno']
    if fields.get('col_offset') is not None:
        new_fields['col_offset'] = fields['col_offset']
    if 'end_lineno' in fields:
        new_fields['end_lineno'] = fields['end_lineno']
    if 'end_col_offset' in fields:
        new_fields['end_col_offset'] = fields['end_col_offset']
    return new


_MISSING = object()


class _Translator:
    """One direction: nodes of the source module's classes into the `target` module's."""

    def __init__(self, target, special):
        self.target = target
        self.special = special  # class name -> function(translator, node), gast's special cases
        self.plans = {}  # source class -> function(node) -> new node

    def value(self, value):
        if isinstance(value, _AST):
            return (self.plans.get(value.__class__) or self._plan(value.__class__))(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value

    def node(self, node):
        return (self.plans.get(node.__class__) or self._plan(node.__class__))(node)

    def _plan(self, source_class):
        special = self.special.get(source_class.__name__)
        plan = self.plans[source_class] = (
            self._generic_plan(source_class) if special is None else
            functools.partial(special, self))
        return plan

    def generic(self, node):
        """`node` translated field by field (what gast does without a special case)."""
        return self._generic_plan(node.__class__)(node)

    @functools.cache  # noqa: B019  (two translators live as long as the module)
    def _generic_plan(self, source_class):
        """A function translating `source_class` nodes field by field, compiled: the
        field names are unrolled and a child node's plan is called directly (a loop
        over the names and a call of `value` per field were most of the time)."""
        target_class = getattr(self.target, source_class.__name__, None)
        if target_class is None:
            return lambda node: None
        if not source_class._fields and not source_class._attributes:
            # A context or an operator (`Load`, `Add`): nothing in it, so one instance
            # serves every node, as CPython's parser shares them.
            shared = target_class()
            return lambda node: shared
        lines = ['def generic(node):', '    fields = node.__dict__',
                 '    new = new_node(target_class)', '    new_fields = new.__dict__']
        for name in source_class._fields + source_class._attributes:
            lines += [f'    item = fields.get({name!r}, MISSING)',
                      '    if item is not MISSING:',
                      '        if isinstance(item, AST):',
                      '            item = (plans.get(item.__class__) or',
                      '                    plan(item.__class__))(item)',
                      '        elif isinstance(item, list):',
                      '            item = [(plans.get(v.__class__) or plan(v.__class__))(v)',
                      '                    if isinstance(v, AST) else value(v) for v in item]',
                      f'        new_fields[{name!r}] = item']
        namespace = {'new_node': target_class.__new__, 'target_class': target_class,
                     'AST': _AST, 'value': self.value, 'plans': self.plans,
                     'plan': self._plan, 'MISSING': _MISSING}
        exec('\n'.join(lines + ['    return new']), namespace)  # noqa: S102  (our text)
        return namespace['generic']

    def build(self, target_class, node, **fields):
        """A `target_class` node of `fields`, located as `node` (ast.copy_location)."""
        new = target_class.__new__(target_class)
        new.__dict__.update(fields)
        return _copy_location(new, node)


# --- ast -> gast ---------------------------------------------------------------------------

def _to_gast_name(t, node):
    # The most common node: built directly, without `build`'s keyword arguments.
    new = _new_node(gast.Name)
    new.__dict__.update(id=node.id, ctx=t.node(node.ctx), annotation=None,
                        type_comment=None)
    return _copy_location(new, node)


def _to_gast_arg(t, node):
    return t.build(gast.Name, node, id=node.arg, ctx=nodes.context(gast.Param),
                   annotation=t.value(node.annotation), type_comment=t.value(node.type_comment))


def _to_gast_handler(t, node):
    if not node.name:
        return t.generic(node)
    return t.build(gast.ExceptHandler, node, type=t.value(node.type),
                   name=nodes.name(node.name, gast.Store),
                   body=t.value(node.body))


def _to_gast_function(t, node):
    return t.build(getattr(gast, type(node).__name__), node, name=node.name,
                   args=t.value(node.args), body=t.value(node.body),
                   decorator_list=t.value(node.decorator_list), returns=t.value(node.returns),
                   type_comment=t.value(node.type_comment), type_params=[])


def _to_gast_class(t, node):
    return t.build(gast.ClassDef, node, name=node.name, bases=t.value(node.bases),
                   keywords=t.value(node.keywords), body=t.value(node.body),
                   decorator_list=t.value(node.decorator_list), type_params=[])


# --- gast -> ast ---------------------------------------------------------------------------

def _to_ast_name(t, node):
    new = _new_node(ast.Name)  # as _to_gast_name
    new.__dict__.update(id=node.id, ctx=t.node(node.ctx))
    return _copy_location(new, node)


def _to_ast_arg(t, node):
    if node is None:
        return None
    return t.build(ast.arg, node, arg=node.id, annotation=t.value(node.annotation),
                   type_comment=t.value(node.type_comment))


def _to_ast_arguments(t, node):
    new = ast.arguments.__new__(ast.arguments)
    new.__dict__.update(
        posonlyargs=[_to_ast_arg(t, a) for a in node.posonlyargs],
        args=[_to_ast_arg(t, a) for a in node.args], vararg=_to_ast_arg(t, node.vararg),
        kwonlyargs=[_to_ast_arg(t, a) for a in node.kwonlyargs],
        kw_defaults=t.value(node.kw_defaults), kwarg=_to_ast_arg(t, node.kwarg),
        defaults=t.value(node.defaults))
    return new


def _to_ast_handler(t, node):
    if not node.name:
        return t.generic(node)
    return t.build(ast.ExceptHandler, node, type=t.value(node.type), name=node.name.id,
                   body=t.value(node.body))


def _to_ast_assign(t, node):
    return t.build(ast.Assign, node, targets=t.value(node.targets), value=t.value(node.value))


def _to_ast_function(t, node):
    return t.build(getattr(ast, type(node).__name__), node, name=node.name,
                   args=t.value(node.args), body=t.value(node.body),
                   decorator_list=t.value(node.decorator_list), returns=t.value(node.returns),
                   type_comment=t.value(node.type_comment))


def _to_ast_class(t, node):
    return t.build(ast.ClassDef, node, name=node.name, bases=t.value(node.bases),
                   keywords=t.value(node.keywords), body=t.value(node.body),
                   decorator_list=t.value(node.decorator_list))


_TO_GAST = _Translator(gast, {
    'Name': _to_gast_name, 'arg': _to_gast_arg, 'ExceptHandler': _to_gast_handler,
    'FunctionDef': _to_gast_function, 'AsyncFunctionDef': _to_gast_function,
    'ClassDef': _to_gast_class})
_TO_AST = _Translator(ast, {
    'Name': _to_ast_name, 'arguments': _to_ast_arguments, 'ExceptHandler': _to_ast_handler,
    'Assign': _to_ast_assign, 'FunctionDef': _to_ast_function,
    'AsyncFunctionDef': _to_ast_function, 'ClassDef': _to_ast_class})



def fix_missing_locations(tree):
    """`ast.fix_missing_locations(tree)` (the same locations filled in), reading nodes
    through `__dict__`: printing calls it on every converted tree."""
    todo = [(tree, 1, 0, 1, 0)]
    while todo:
        node, lineno, col_offset, end_lineno, end_col_offset = todo.pop()
        fields = node.__dict__
        if 'lineno' in node._attributes:  # not contexts, operators, arguments, ...
            # ast's rules: a start is kept when present (None too), an end when not None.
            if 'lineno' in fields:
                lineno = fields['lineno']
            else:
                fields['lineno'] = lineno
            if fields.get('end_lineno') is None:
                fields['end_lineno'] = end_lineno
            else:
                end_lineno = fields['end_lineno']
            if 'col_offset' in fields:
                col_offset = fields['col_offset']
            else:
                fields['col_offset'] = col_offset
            if fields.get('end_col_offset') is None:
                fields['end_col_offset'] = end_col_offset
            else:
                end_col_offset = fields['end_col_offset']
        location = (lineno, col_offset, end_lineno, end_col_offset)
        for name in node._fields:
            value = fields.get(name)
            if isinstance(value, _AST):
                todo.append((value, *location))
            elif isinstance(value, list):
                todo.extend((v, *location) for v in value if isinstance(v, _AST))
    return tree


if (3, 8) <= sys.version_info[:2] <= (3, 11):
    ast_to_gast = _TO_GAST.value
    gast_to_ast = _TO_AST.value
else:  # other versions have other differences: gast's own translators know them
    ast_to_gast = gast.ast_to_gast
    gast_to_ast = gast.gast_to_ast
