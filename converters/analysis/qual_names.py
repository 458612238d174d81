"""Qualified names: `a`, `a.b`, `a[0]`, `self.x`, `d['k']` as hashable symbols.

`qn_of(node)` is the `QN` of a Name, of an Attribute whose value has one, and of a
Subscript with a constant index whose value has one; None for anything else (a
Subscript with a computed index, `a[i]`: writing it mutates `a`). It is computed from
the node when asked (the analyses ask for the names they meet), not stored: a walk
annotating every node beforehand cost a twentieth of conversion, and a node a pass
changes later is never seen with a stale name.
"""
import gast
from autograph_py.converters import nodes


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
    node_class = node.__class__
    if node_class is gast.Name:
        return QN(node.id)
    if node_class is gast.Attribute:
        base = qn_of(node.value)
        return None if base is None else QN(base, attr=node.attr)
    if node_class is gast.Subscript and isinstance(node.slice, gast.Constant):
        base = qn_of(node.value)
        return None if base is None else QN(base, subscript=node.slice.value)
    return None
