"""Generate gast code from quoted Python with named placeholders.

    replace('''
        def name(args):
            body
    ''', name='if_body', args=[], body=stmts)

A placeholder is any identifier of the template that is a keyword of `replace`: a Name,
a function name, a parameter, a keyword argument name or a name in `global`/`nonlocal`.
Values are strings (become Names), gast nodes, or lists: a list of statements replaces
a placeholder that stands alone as a statement, a list of strings fills
`nonlocal`/`global` (an empty one drops the statement), a list of names fills a
parameter list and a list of expressions fills call arguments.

Nodes are handed over, not lent: a value's first use in the template is the node itself
(so a body moved into a closure is never copied, which kept nested statements
quadratic), every further use a copy (`converters.copier`). Callers must not keep using
a node they passed in. Each template text is parsed once and compiled (`_instantiator`)
into a function building a new tree per use, with the placeholders replaced as it goes;
`_Replacer`, walking a plain copy of the parsed tree (`_builder`), is the same replacement
written as a visitor: what the compiled code calls at each place a placeholder may stand,
and the oracle the tests compare it with.

The template owns expression context: a value inserted where the template has a Store
(assignment target) or Del position gets that context, Load everywhere else, so callers
can pass the same node for a read and a write. Nodes that come from the template text
have no location; `Transformer` gives them the location of the user node they replace.
"""
import functools
import textwrap

import gast
from autograph_py.converters import anno, nodes, parser, traversal
from autograph_py.converters.copier import copy_tree
from autograph_py.converters.gast_ast import ast_to_gast

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


def _strip_locations(tree):
    for node in traversal.walk(tree):
        for attr in _LOCATION:
            if hasattr(node, attr):
                delattr(node, attr)


def set_ctx(node, ctx_type):
    """Give a target expression (and the elements of a tuple/list target) a context."""
    node.ctx = nodes.context(ctx_type)
    if isinstance(node, (gast.Tuple, gast.List)):
        for elt in node.elts:
            set_ctx(elt, ctx_type)
    elif isinstance(node, gast.Starred):
        set_ctx(node.value, ctx_type)


class _Replacer(traversal.NodeTransformer):
    def __init__(self, replacements):
        self.replacements = replacements
        self.used = set()  # ids of the nodes already inserted once

    def _value(self, name):
        return self.replacements.get(name)

    def _take(self, node):
        """`node` itself on its first insertion, a copy on later ones."""
        if id(node) in self.used:
            return copy_tree(node)
        self.used.add(id(node))
        return node

    def visit_Name(self, node):
        value = self._value(node.id)
        if value is None:
            return node
        if isinstance(value, str):
            return nodes.name(value, type(node.ctx))
        if isinstance(value, gast.AST):
            new = self._take(value)
            if hasattr(new, 'ctx'):
                set_ctx(new, type(node.ctx))
            return new
        raise ValueError(f'placeholder {node.id} cannot take {type(value).__name__} here')

    def visit_Expr(self, node):
        if isinstance(node.value, gast.Name):
            value = self._value(node.value.id)
            if isinstance(value, (list, tuple)):
                return [self._take(stmt) for stmt in value]
            if isinstance(value, gast.stmt):
                return self._take(value)
        return self.generic_visit(node)

    def _rename(self, name):
        value = self._value(name)
        return name if value is None else value

    def visit_FunctionDef(self, node):
        node.name = self._rename(node.name)
        return self.generic_visit(node)

    def visit_arguments(self, node):
        expanded = []
        for arg in node.args:
            value = self._value(arg.id)
            if isinstance(value, (list, tuple)):
                expanded.extend(nodes.name(v, gast.Param) if isinstance(v, str) else v
                                for v in value)
            else:
                expanded.append(self.visit(arg))
        node.args = expanded
        return node

    def visit_Call(self, node):
        node.func = self.visit(node.func)
        args = []
        for arg in node.args:
            value = self._value(arg.id) if isinstance(arg, gast.Name) else None
            if isinstance(value, (list, tuple)):
                args.extend(self._take(v) for v in value)
            else:
                args.append(self.visit(arg))
        node.args = args
        node.keywords = [self.visit(k) for k in node.keywords]
        return node

    def visit_keyword(self, node):
        if node.arg is not None:
            node.arg = self._rename(node.arg)
        return self.generic_visit(node)

    def _declaration(self, node):
        names = []
        for name in node.names:
            value = self._rename(name)
            names.extend([value] if isinstance(value, str) else value)
        if not names:
            return None
        node.names = names
        return node

    visit_Nonlocal = visit_Global = _declaration


@functools.cache
def _parsed(template):
    tree = ast_to_gast(parser.parse_ast(textwrap.dedent(template)))
    _strip_locations(tree)
    return tree


_CONSTANTS = (str, bytes, int, float, complex, bool, type(None), type(Ellipsis))  # repr-able


class _Sites:
    """What compiled templates call where a placeholder may stand (see `_instantiator`);
    each does what `_Replacer` does there, for the values of one `replace` call."""

    def __init__(self, replacements):
        self.replacer = _Replacer(replacements)
        self.get = replacements.get

    def name(self, identifier, ctx_class):
        """A Name (`identifier` in a `ctx_class` position), replaced."""
        value = self.get(identifier)
        if value is None:
            return nodes.name(identifier, ctx_class)
        return self.replacer.visit_Name(nodes.name(identifier, ctx_class))

    def rename(self, identifier):
        value = self.get(identifier)
        return identifier if value is None else value

    def statement(self, identifier):
        """The statements standing for the statement `identifier` alone."""
        value = self.get(identifier)
        if isinstance(value, (list, tuple)):
            return [self.replacer._take(stmt) for stmt in value]
        if isinstance(value, gast.stmt):
            return [self.replacer._take(value)]
        return [gast.Expr(value=self.name(identifier, gast.Load))]

    def argument(self, identifier):
        """The call arguments standing for the argument `identifier`."""
        value = self.get(identifier)
        if isinstance(value, (list, tuple)):
            return [self.replacer._take(v) for v in value]
        return [self.name(identifier, gast.Load)]

    def parameter(self, identifier, node):
        """The parameters standing for the template's parameter `node` (`identifier`)."""
        value = self.get(identifier)
        if value is None:
            return [node]
        if isinstance(value, (list, tuple)):
            return [nodes.name(v, gast.Param) if isinstance(v, str) else v for v in value]
        return [self.replacer.visit_Name(node)]

    def declaration(self, node_class, names):
        """`global`/`nonlocal` of `names` replaced, or None when none is left."""
        node = gast.AST.__new__(node_class)
        node.__dict__['names'] = list(names)
        return self.replacer._declaration(node)


def _builder(template):
    """A function returning a new copy of `template`'s parsed tree (the tree
    `_Replacer` walks: the oracle of the compiled replacement)."""
    copy = _compile(template, plain=True)
    return lambda: copy(None)


def _instantiator(template):
    """A function `instantiate(sites)` returning the tree `replace` returns for
    `template`."""
    return _compile(template, plain=False)


@functools.cache
def _compile(template, plain):
    """Straight-line code building each node of `template`'s parsed tree (filling its
    `__dict__` at once: copying was a quarter of conversion time), which calls `sites`
    (`_Sites`) only where `_Replacer` would replace something, instead of walking every
    node of the copy to find them; with `plain`, a copy (no sites). (A node passed for
    two placeholders is inserted itself at one place and copied at the other; which one
    may differ from `_Replacer`'s choice, nodes being built children first: the trees
    are equal.)"""
    tree = _parsed(template)
    lines, names = [], {'_new': gast.AST.__new__}

    def constant(value):
        name = f'_{len(names)}'
        names[name] = value
        return name

    def node_expr(node_class, fields):
        name = f'n{len(lines)}_{len(names)}'
        names[f'_{name}'] = node_class
        items = ', '.join(f'{k!r}: {v}' for k, v in fields.items())
        lines.append(f'{name} = _new(_{name}); {name}.__dict__.update({{{items}}})')
        return name

    def statements(stmts):
        name = f'l{len(lines)}'
        lines.append(f'{name} = []')
        for stmt in stmts:
            if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Name):
                lines.append(f'{name} += sites.statement({stmt.value.id!r})')
            elif isinstance(stmt, (gast.Global, gast.Nonlocal)):
                declaration = f'd{len(lines)}'
                lines.append(f'{declaration} = sites.declaration({constant(type(stmt))}, '
                             f'{stmt.names!r})')
                lines.append(f'if {declaration} is not None: {name}.append({declaration})')
            else:
                lines.append(f'{name}.append({build(stmt)})')
        return name

    def build(value, field=None, parent=None, plain=False):
        """An expression for `value`; `plain`: copied as it is, as `_Replacer` leaves
        what it does not visit (a signature's defaults, `*args`, keyword-only ones)."""
        if isinstance(value, list):
            if value and isinstance(value[0], gast.stmt) and not plain:
                return statements(value)
            if isinstance(parent, gast.Call) and field == 'args' and not plain:
                return '[' + ', '.join(
                    f'*sites.argument({v.id!r})' if isinstance(v, gast.Name) else build(v)
                    for v in value) + ']'
            if isinstance(parent, gast.arguments) and field == 'args' and not plain:
                return '[' + ', '.join(f'*sites.parameter({v.id!r}, {build(v, plain=True)})'
                                       for v in value) + ']'
            return '[' + ', '.join(build(v, plain=plain) for v in value) + ']'
        if not isinstance(value, gast.AST):
            if type(value) not in _CONSTANTS:  # a template holds no other constant
                raise ValueError(f'template constant {value!r} in {template!r}')
            return repr(value)
        if not value.__dict__:
            return constant(value)  # shared, as copy_tree shares it
        if isinstance(value, gast.Name) and not plain:
            return f'sites.name({value.id!r}, {constant(type(value.ctx))})'
        # `_Replacer.visit_arguments` visits the positional parameters only.
        signature = isinstance(value, gast.arguments)
        fields = {}
        for key, item in value.__dict__.items():
            if key in ('name', 'arg') and isinstance(value, (gast.FunctionDef,
                                                              gast.keyword)) and not plain:
                fields[key] = f'sites.rename({item!r})' if item is not None else 'None'
            else:
                fields[key] = build(item, key, value,
                                    plain or signature and key != 'args')
        return node_expr(type(value), fields)

    root = build(tree, plain=plain)
    source = 'def instantiate(sites):\n' + ''.join(f'    {line}\n' for line in lines)
    exec(source + f'    return {root}\n', names)  # noqa: S102  (our template's tree)
    return names['instantiate']


def replace(template, **replacements):
    """The statements of `template` with placeholders replaced."""
    return _instantiator(template)(_Sites(replacements)).body


def thunk(expr, namer):
    """`lambda: expr`, marked `Basic.THUNK`: the operator it is passed to calls it (or
    not) before returning, so it reads names where it is written, like `expr` did.

    When `expr` holds a `:=`, the thunk is `ag__.once(expr for _ in ag__.ONCE)` instead
    (runtime/operators/thunks.py): a `:=` in a lambda would bind a name of the lambda,
    in a generator expression it binds where the user's does (PEP 572)."""
    if traversal.walrus_targets([expr]):
        return replace_as_expression('ag__.once(expr for unused in ag__.ONCE)', expr=expr,
                                     unused=namer.shared_symbol('_'))
    node = replace_as_expression('lambda: expr', expr=expr)
    anno.setanno(node, anno.Basic.THUNK, True)
    return node


def thunk_value(node):
    """The expression the thunk `node` (made by `thunk`) computes, else None."""
    if isinstance(node, gast.Lambda) and anno.hasanno(node, anno.Basic.THUNK):
        return node.body
    if (is_operator_call(node, 'once') and len(node.args) == 1 and
            isinstance(node.args[0], gast.GeneratorExp)):
        return node.args[0].elt
    return None


def is_operator_call(node, name):
    """Whether `node` calls the operator `ag__.<name>`."""
    return (isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and
            node.func.attr == name and isinstance(node.func.value, gast.Name) and
            node.func.value.id == 'ag__')


def replace_as_expression(template, **replacements):
    """The single expression of `template` with placeholders replaced."""
    stmts = replace(template, **replacements)
    if len(stmts) != 1 or not isinstance(stmts[0], gast.Expr):
        raise ValueError(f'template is not a single expression: {template!r}')
    return stmts[0].value
