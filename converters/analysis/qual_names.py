"""Qualified names: `a`, `a.b`, `a[0]`, `self.x`, `d['k']` as hashable symbols.

`resolve(tree)` puts a `QN` under `anno.Basic.QN` on every Name, on every Attribute whose
value has a QN, and on every Subscript with a constant index whose value has a QN.
Subscripts with computed indices (`a[i]`) get no QN: writing them mutates `a`.
Expressions under a loop's `Basic.EXTRA_LOOP_TEST` are resolved too.
"""
import gast
from autograph_py.converters import anno, nodes, traversal


class QN:
    """A symbol: a plain name or a chain of attributes/constant subscripts on one."""

    def __init__(self, base, attr=None, subscript=None):
        self.parent = base if isinstance(base, QN) else None
        self._name = base if isinstance(base, str) else None
        self.attr = attr
        self.subscript = subscript
        if self.parent is None:
            self._str = base
        elif attr is not None:
            self._str = f'{base}.{attr}'
        else:
            self._str = f'{base}[{subscript!r}]'

    @property
    def is_composite(self):
        return self.parent is not None

    @property
    def root(self):
        return self if self.parent is None else self.parent.root

    def __str__(self):
        return self._str

    def __repr__(self):
        return f'QN({self._str!r})'

    def __eq__(self, other):
        return isinstance(other, QN) and self._str == other._str

    def __lt__(self, other):
        return self._str < other._str

    def __hash__(self):
        return hash(self._str)

    def to_node(self):
        """A Load expression for this symbol."""
        if self.parent is None:
            return nodes.name(self._name)
        if self.attr is not None:
            return gast.Attribute(value=self.parent.to_node(), attr=self.attr,
                                  ctx=nodes.context(gast.Load))
        return gast.Subscript(value=self.parent.to_node(),
                              slice=gast.Constant(value=self.subscript, kind=None),
                              ctx=gast.Load())


def qn_of(node):
    return anno.getanno(node, anno.Basic.QN)


class _Resolver(traversal.NodeVisitor):
    def _loop(self, node):
        # A loop's extra test (lowered break/return: only loops carry one) is part of
        # its head. (Not checked on every node: that kept the walk from skipping the
        # nodes it has nothing to do with, a constant.)
        for test in anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, ()):
            self.visit(test)
        self.generic_visit(node)

    visit_For = visit_AsyncFor = visit_While = _loop

    def visit_Name(self, node):
        anno.setanno(node, anno.Basic.QN, QN(node.id))

    def visit_Attribute(self, node):
        self.generic_visit(node)
        base = qn_of(node.value)
        if base is not None:
            anno.setanno(node, anno.Basic.QN, QN(base, attr=node.attr))

    def visit_Subscript(self, node):
        self.generic_visit(node)
        base = qn_of(node.value)
        if base is not None and isinstance(node.slice, gast.Constant):
            anno.setanno(node, anno.Basic.QN, QN(base, subscript=node.slice.value))


def resolve(tree):
    _Resolver().visit(tree)
    return tree
