"""Fast traversal of gast trees: what `ast.iter_child_nodes`, `ast.walk` and
`ast.NodeTransformer` do, reading a node's fields from its `__dict__`.

Every converter walks the whole function several times, so the generic versions'
per-field `getattr` and per-node method lookups were a large part of conversion time.
Semantics are the standard library's, with one exception: only the fields that can hold
nodes worth entering are read (`child_fields`), so names, constants and the field-less
contexts and operators (`Load`, `Add`, `Eq`, ...) are never yielded nor visited. A third
of a tree's nodes are such leaves, nothing is under them, and no converter looks at one
except through its parent (`node.ctx`).
"""
import ast
import types
import typing

import gast

_AST = gast.AST
# Field types that hold no node to enter: scalars, and the field-less node kinds.
_LEAF_TYPES = (str, int, bool, bytes, object, type(None), ast.expr_context, ast.operator,
               ast.cmpop, ast.boolop, ast.unaryop)
# gast keeps ast's declared type (`str | None`) for a field it fills with a Name.
_NAMES_DECLARED_AS_STR = {('ExceptHandler', 'name')}
BLOCK_ITEMS = (gast.stmt, gast.excepthandler, gast.match_case)  # what blocks hold
_CHILD_FIELDS = {}  # node class -> its fields that may hold nodes to enter
_CHILDREN = {}  # node class -> its `children` function (`_compile_children`)
_STDLIB_VISIT_CONSTANT = ast.NodeVisitor.visit_Constant


def _holds_no_child(field_type):
    if isinstance(field_type, (types.UnionType, types.GenericAlias)):
        return all(_holds_no_child(t) for t in typing.get_args(field_type))
    return field_type in _LEAF_TYPES


def child_fields(node_class):
    """The fields of `node_class` that may hold nodes to enter (all of them for a class
    that does not declare its field types)."""
    fields = _CHILD_FIELDS.get(node_class)
    if fields is None:
        declared = node_class.__dict__.get('_field_types') or {}
        fields = _CHILD_FIELDS[node_class] = tuple(
            f for f in node_class._fields
            if f not in declared or not _holds_no_child(declared[f]) or
            (node_class.__name__, f) in _NAMES_DECLARED_AS_STR)
    return fields


def _may_hold(field_type, kinds):
    """Whether a field declared `field_type` may hold a node of one of `kinds` (named as
    the declaration names them: gast declares the standard library's classes)."""
    if isinstance(field_type, (types.UnionType, types.GenericAlias)):
        return any(_may_hold(t, kinds) for t in typing.get_args(field_type))
    return getattr(field_type, '__name__', None) in kinds


def fields_entering(node_class, enters):
    """The fields of `node_class` that may hold an instance of `enters` (a class or a
    tuple of classes): `child_fields`, less those declared to hold other nodes only (a
    statement's expressions, for a walk of statements)."""
    fields = child_fields(node_class)
    if enters is _AST:
        return fields
    declared = node_class.__dict__.get('_field_types') or {}
    kinds = {c.__name__ for c in (enters if isinstance(enters, tuple) else (enters,))}
    return tuple(f for f in fields if f not in declared or _may_hold(declared[f], kinds))


def _compile_children(node_class, enters=_AST, cache=_CHILDREN):
    """`children` for `node_class` nodes, compiled: its fields read one after the other
    (every walk of every pass calls it for every node; a loop over the field names and
    a generator per list cost a third more). With `enters`, only the fields that may
    hold one (`fields_entering`) are read, and the function is kept in `cache`."""
    lines = ['def children(node):', '    fields = node.__dict__', '    out = []']
    for field in fields_entering(node_class, enters):
        lines += [f'    value = fields.get({field!r})',
                  '    if isinstance(value, AST):',
                  '        out.append(value)',
                  '    elif isinstance(value, list):',
                  '        for item in value:',
                  '            if isinstance(item, AST):',
                  '                out.append(item)']
    namespace = {'AST': _AST}
    exec('\n'.join(lines + ['    return out']), namespace)  # noqa: S102  (our own text)
    function = cache[node_class] = namespace['children']
    return function


def children(node):
    """The direct child nodes of `node`, in field order."""
    return (_CHILDREN.get(node.__class__) or _compile_children(node.__class__))(node)


def walk(node):
    """`node` and every node under it (order unspecified, as `ast.walk`)."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo += (_CHILDREN.get(node.__class__) or _compile_children(node.__class__))(node)


def _visitor_of(cls, node_class):
    """The function visiting `node_class` nodes in visitor class `cls` (its `visit_X`,
    else `generic_visit`), remembered in the class's dispatch table."""
    visitor = getattr(cls, 'visit_' + node_class.__name__, cls.generic_visit)
    if visitor is _STDLIB_VISIT_CONSTANT:
        # ast.NodeVisitor's own, looking for the visit_Num/visit_Str methods of Python
        # 3.7 visitors on every Constant (a tenth of all nodes): none of ours has them.
        visitor = cls.generic_visit
    cls._visitors[node_class] = visitor
    return visitor


_UNKNOWN = object()  # not in a class's `_entries` yet


def _entry_of(cls, node_class, base_generic_visit):
    """How `generic_visit` of visitor class `cls` treats a child of class `node_class`
    (remembered in `cls._entries`): None when it does not visit it (not an instance of
    `cls.enters`, not a node at all, or a node visiting would leave as it is: one with
    no field that may hold a node, which `cls` visits with its base's generic_visit);
    the name of a node's only field that may hold a node when that is all it holds
    (visited only when the field is not None); True when it always visits it."""
    if not (isinstance(node_class, type) and issubclass(node_class, cls.enters)):
        entry = None
    else:
        fields = child_fields(node_class)
        inert = (cls._visitors.get(node_class) or cls._visitor_of(node_class)
                 ) is base_generic_visit and len(fields) <= 1
        entry = (fields[0] if fields else None) if inert else True
    cls._entries[node_class] = entry
    return entry


class NodeTransformer(gast.NodeTransformer):
    """`gast.NodeTransformer` with a dispatch table and a direct `generic_visit`.

    `generic_visit` enters the children that are instances of `enters` (all nodes by
    default; a subclass may narrow it, e.g. to statements). It does not enter a child
    that holds no node and that this class visits with `generic_visit` (a Name without
    annotation, a Constant: a third of all visits), as visiting it would change nothing;
    so an override of `visit` must leave such a node as it is. A list of children is
    rebuilt only from the first child whose visit returned something else.
    """

    enters = _AST

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}  # node class -> the visit function of this class
        cls._entries = {}  # node class -> `_entry_of`
        cls._fields = {}  # node class -> `fields_entering` it, for `cls.enters`

    @classmethod
    def _entry(cls, node_class):
        return _entry_of(cls, node_class, NodeTransformer.generic_visit)

    @classmethod
    def _fields_of(cls, node_class):
        fields = cls._fields[node_class] = fields_entering(node_class, cls.enters)
        return fields

    def visit(self, node):
        visitor = self._visitors.get(node.__class__)
        if visitor is None:
            visitor = self._visitor_of(node.__class__)
        return visitor(self, node)

    _visitor_of = classmethod(_visitor_of)

    def generic_visit(self, node):
        fields = node.__dict__
        entries = self._entries
        visit = self.visit
        fields_entering_it = self._fields.get(node.__class__)
        if fields_entering_it is None:  # (an empty tuple is a known answer too)
            fields_entering_it = self._fields_of(node.__class__)
        for field in fields_entering_it:
            old = fields.get(field)
            if old.__class__ is list:
                new = None  # the rebuilt list, from the first changed child on
                for i, value in enumerate(old):
                    entry = entries.get(value.__class__, _UNKNOWN)
                    if entry is _UNKNOWN:
                        entry = self._entry(value.__class__)
                    if entry is None or entry is not True and value.__dict__.get(entry) is None:
                        result = value
                    else:
                        result = visit(value)
                    if result is value:
                        if new is not None:
                            new.append(value)
                        continue
                    if new is None:
                        new = old[:i]
                    if result is None:
                        continue
                    if isinstance(result, _AST):
                        new.append(result)
                    else:
                        new.extend(result)
                if new is not None:
                    old[:] = new
            else:
                entry = entries.get(old.__class__, _UNKNOWN)
                if entry is _UNKNOWN:
                    entry = self._entry(old.__class__)
                if entry is None or entry is not True and old.__dict__.get(entry) is None:
                    continue
                value = visit(old)
                if value is None:
                    delattr(node, field)
                elif value is not old:
                    fields[field] = value
        return node


class NodeVisitor(gast.NodeVisitor):
    """`gast.NodeVisitor` with a dispatch table and a direct `generic_visit`, which
    enters the children that are instances of `enters`, and skips those visiting would
    do nothing with (as NodeTransformer's)."""

    enters = _AST

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}  # node class -> the visit function of this class
        cls._entries = {}  # node class -> `_entry_of`
        cls._children = {}  # node class -> its `children` reading the fields `enters` needs

    @classmethod
    def _entry(cls, node_class):
        return _entry_of(cls, node_class, NodeVisitor.generic_visit)

    @classmethod
    def _children_of(cls, node_class):
        return _compile_children(node_class, cls.enters, cls._children)

    visit = NodeTransformer.visit
    _visitor_of = classmethod(_visitor_of)

    def generic_visit(self, node):
        entries = self._entries
        visit = self.visit
        for child in (self._children.get(node.__class__) or self._children_of(node.__class__)
                      )(node):
            entry = entries.get(child.__class__, _UNKNOWN)
            if entry is _UNKNOWN:
                entry = self._entry(child.__class__)
            if entry is True or entry is not None and child.__dict__.get(entry) is not None:
                visit(child)



_SCOPES_OF_THEIR_OWN = (gast.Lambda, gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def walrus_targets(nodes):
    """The names a `:=` in `nodes` binds in the scope holding them: a `:=` in a
    comprehension binds there too (PEP 572), one in a lambda binds the lambda's own name."""
    targets, todo = set(), list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, gast.NamedExpr):
            targets.add(node.target.id)
        if not isinstance(node, _SCOPES_OF_THEIR_OWN):
            todo += children(node)
    return targets

_BLOCK_CHILDREN = {}  # node class -> its `children` reading the fields of statements


def block_items(node):
    """The statements (and except handlers, match cases) under `node`, `node` first:
    the nodes a walk looking for statements needs (no expression holds a statement, so
    only the fields declared to hold statements are read)."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo += [child for child in (_BLOCK_CHILDREN.get(node.__class__) or _compile_children(
            node.__class__, BLOCK_ITEMS, _BLOCK_CHILDREN))(node)
                 if isinstance(child, BLOCK_ITEMS)]
