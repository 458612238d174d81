"""Base class of the converters, and the context a conversion carries.

`Transformer.visit` gives every node a visit method returns in place of the visited one
the location (`lineno`, `col_offset`, ...) of the visited user node, unless it already
has one, so generated code always points at the user construct it came from.
`Transformer.locate` does the same for nodes a converter builds outside `visit`.
Nodes annotated `Basic.SKIP_PROCESSING` are returned untouched.
"""
import dataclasses

import gast

from converters import anno
from converters.errors import ConversionError
from converters.naming import Namer

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')


@dataclasses.dataclass
class ConversionContext:
    filename: str = '<unknown>'
    namer: Namer = dataclasses.field(default_factory=Namer)
    recursive: bool = True

    def error(self, node, message):
        return ConversionError(message, self.filename, getattr(node, 'lineno', 0),
                               getattr(node, 'col_offset', None))


def _locatable(node):
    return 'lineno' in getattr(type(node), '_attributes', ())


def locate(nodes, origin):
    """Copy `origin`'s location onto every node under `nodes` that has none."""
    if not _locatable(origin) or getattr(origin, 'lineno', None) is None:
        return nodes
    for root in nodes if isinstance(nodes, (list, tuple)) else [nodes]:
        for node in gast.walk(root):
            if _locatable(node) and getattr(node, 'lineno', None) is None:
                for attr in _LOCATION:
                    setattr(node, attr, getattr(origin, attr, None))
    return nodes


def locate_from_ancestors(tree):
    """Give located-less nodes the location of their nearest located ancestor."""
    def fill(node, origin):
        if _locatable(node):
            if getattr(node, 'lineno', None) is None and origin is not None:
                locate(node, origin)
            origin = node
        for child in gast.iter_child_nodes(node):
            fill(child, origin)
    fill(tree, None)
    return tree


class Transformer(gast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit(self, node):
        if anno.hasanno(node, anno.Basic.SKIP_PROCESSING):
            return node
        result = super().visit(node)
        if result is not node and result is not None:
            locate(result, node)
        return result

    def visit_block(self, stmts):
        """Visit a list of statements; visits may return None or lists."""
        out = []
        for stmt in stmts:
            result = self.visit(stmt)
            if isinstance(result, list):
                out.extend(result)
            elif result is not None:
                out.append(result)
        return out

    locate = staticmethod(locate)
