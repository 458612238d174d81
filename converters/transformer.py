"""Base class of the converters, and the context a conversion carries.

`Transformer.visit` gives every node a visit method returns in place of the visited one
the location (`lineno`, `col_offset`, ...) of the visited user node, unless it already
has one, so generated code always points at the user construct it came from.
`Transformer.locate` does the same for nodes a converter builds outside `visit`.
Nodes annotated `Basic.SKIP_PROCESSING` are returned untouched.
"""
import dataclasses

import gast
from autograph_py.converters import anno, traversal
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.naming import Namer

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')
_AST = gast.AST
_BLOCK_ITEMS = traversal.BLOCK_ITEMS
_SKIP = anno.Basic.SKIP_PROCESSING
_ANNOTATIONS = anno.ATTR


@dataclasses.dataclass
class ConversionContext:
    filename: str = '<unknown>'
    namer: Namer = dataclasses.field(default_factory=Namer)
    recursive: bool = True
    census: object = None  # the function's `census.Census`, set by the pipeline
    # The class whose body the function was written in, when the converted code is
    # compiled outside it (private names are then mangled here: converters.private_names).
    class_name: str = None
    # Whether the function has a `__class__` cell (it is defined in a class body), which
    # zero-argument `super()` needs (converters/super_calls.py).
    class_cell: bool = False

    def error(self, node, message):
        """A ConversionError at `node`, its column 1-based like a SyntaxError's."""
        col_offset = getattr(node, 'col_offset', None)
        return ConversionError(message, self.filename, getattr(node, 'lineno', 0),
                               None if col_offset is None else col_offset + 1)


def _locatable(node):
    return 'lineno' in getattr(type(node), '_attributes', ())


def locate(nodes, origin):
    """Copy `origin`'s location onto the nodes under `nodes` that have none.

    A located node is not entered: what is under it was located when it was built (or
    gets its location from `locate_from_ancestors`), and not entering keeps repeated
    locating of growing generated code linear.
    """
    if not _locatable(origin) or getattr(origin, 'lineno', None) is None:
        return nodes
    location = {attr: getattr(origin, attr, None) for attr in _LOCATION}
    todo = list(nodes) if isinstance(nodes, (list, tuple)) else [nodes]
    while todo:
        node = todo.pop()
        if 'lineno' in node._attributes:  # not a context, an operator, `arguments`
            fields = node.__dict__
            if fields.get('lineno') is not None:
                continue
            fields.update(location)
        todo += traversal.children(node)
    return nodes


def locate_from_ancestors(tree):
    """Give located-less nodes the location of their nearest located ancestor."""
    todo = [([tree], None)]  # (sibling nodes, the location their parent passes on)
    while todo:
        nodes, inherited = todo.pop()
        for node in nodes:
            origin = inherited
            if 'lineno' in node._attributes:
                fields = node.__dict__
                if fields.get('lineno') is None and origin is not None:
                    # Its own location only: its children take it from it in turn.
                    fields.update((attr, origin.__dict__.get(attr)) for attr in _LOCATION)
                origin = node if fields.get('lineno') is not None else None
            children = traversal.children(node)
            if children:
                todo.append((children, origin))
    return tree


def _visits_expressions(transformer_class):
    """Whether a transformer has a visit method for something other than statements."""
    own = {name for klass in transformer_class.__mro__[:-len(Transformer.__mro__)]
           for name in vars(klass) if name.startswith('visit_')}
    return any(not (isinstance(node_class, type) and issubclass(node_class, _BLOCK_ITEMS))
               for node_class in (getattr(gast, name[len('visit_'):], None)
                                  for name in own))


class Transformer(traversal.NodeTransformer):
    """Base of the converters.

    A transformer that visits only statements (`visit_If`, `visit_FunctionDef`, ...)
    does not enter expressions: they hold no statement (lambdas and comprehensions
    cannot), so this is invisible except in speed, as every pass walks the tree.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.enters = _AST if _visits_expressions(cls) else _BLOCK_ITEMS

    def __init__(self, ctx):
        self.ctx = ctx

    def visit(self, node):
        # The base class's dispatch, inlined: this runs for every node of every pass.
        if _SKIP in node.__dict__.get(_ANNOTATIONS, ()):
            return node
        visitor = self._visitors.get(node.__class__)
        if visitor is None:
            visitor = self._visitor_of(node.__class__)
        result = visitor(self, node)
        if result is not node and result is not None:
            locate(result, node)
        return result

    locate = staticmethod(locate)
