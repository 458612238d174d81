"""Fast traversal of gast trees: what `ast.iter_child_nodes`, `ast.walk` and
`ast.NodeTransformer` do, reading a node's fields from its `__dict__`.

Every converter walks the whole function several times, so the generic versions'
per-field `getattr` and per-node method lookups were a large part of conversion time.
Semantics are the standard library's.
"""
import gast

_AST = gast.AST


def children(node):
    """The direct child nodes of `node`, in field order."""
    fields = node.__dict__
    out = []
    for field in node._fields:
        value = fields.get(field)
        if isinstance(value, _AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, _AST))
    return out


def walk(node):
    """`node` and every node under it (order unspecified, as `ast.walk`)."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(children(node))


class NodeTransformer(gast.NodeTransformer):
    """`gast.NodeTransformer` with a dispatch table and a direct `generic_visit`.

    `generic_visit` enters the children that are instances of `enters` (all nodes by
    default; a subclass may narrow it, e.g. to statements).
    """

    enters = _AST

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}  # node class -> the visit function of this class

    def visit(self, node):
        node_class = node.__class__
        visitor = self._visitors.get(node_class)
        if visitor is None:
            visitor = self._visitors[node_class] = getattr(
                type(self), 'visit_' + node_class.__name__, type(self).generic_visit)
        return visitor(self, node)

    def generic_visit(self, node):
        fields = node.__dict__
        enters = self.enters
        for field in node._fields:
            old = fields.get(field)
            if isinstance(old, list):
                new = []
                for value in old:
                    if isinstance(value, enters):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, _AST):
                            new.extend(value)
                            continue
                    new.append(value)
                old[:] = new
            elif isinstance(old, enters):
                value = self.visit(old)
                if value is None:
                    delattr(node, field)
                else:
                    fields[field] = value
        return node


class NodeVisitor(gast.NodeVisitor):
    """`gast.NodeVisitor` with a dispatch table and a direct `generic_visit`."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}  # node class -> the visit function of this class

    visit = NodeTransformer.visit

    def generic_visit(self, node):
        for child in children(node):
            self.visit(child)
