"""Annotated assignments of plain names out of the blocks control flow makes closures.

After this pass no annotated plain name (`x: T = v`, `x: T`) stands in a block of an
`if`, `for` or `while`: control flow turns those blocks into closures, which write the
function's variables through `nonlocal`, and Python rejects an annotated name declared
`nonlocal` (`SyntaxError: annotated name 'x' can't be nonlocal`). There `x: T = v`
becomes `x = v`, and the bare annotation `x: T` stands just before the outermost such
statement, in the function's own scope (once per name).

Nothing that runs changes: Python never evaluates the annotation of a function's local,
and a bare annotation only makes the name local to the function, wherever it stands.
Annotated attributes and items (`self.x: T = v`) and parenthesized names (`(x): T = v`)
are not annotated names: they stay as written.
"""
import gast
from autograph_py.converters import census
from autograph_py.converters.transformer import Transformer

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)
_BLOCKS = ('body', 'orelse', 'finalbody')


def _name(name):
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)


def _annotated_name(stmt):
    return (isinstance(stmt, gast.AnnAssign) and stmt.simple and
            isinstance(stmt.target, gast.Name))


class AnnotationTransformer(Transformer):
    def _hoist(self, node):
        annotations = {}
        self._blocks(node, annotations)
        return list(annotations.values()) + [node]

    visit_If = visit_For = visit_While = _hoist

    def _blocks(self, stmt, annotations):
        for field in _BLOCKS:
            block = getattr(stmt, field, None)
            if block:
                setattr(stmt, field, self._block(block, annotations))
        for part in [*getattr(stmt, 'handlers', ()), *getattr(stmt, 'cases', ())]:
            part.body = self._block(part.body, annotations)

    def _block(self, stmts, annotations):
        """`stmts` with their annotated names' annotations moved into `annotations`
        (name -> the bare annotation), the blocks of the statements in them too."""
        out = []
        for stmt in stmts:
            if _annotated_name(stmt):
                # Unlocated, the annotation is located as the statement it stands before
                # (its comments go there); the assignment as the user's, with its own.
                annotations.setdefault(stmt.target.id, gast.AnnAssign(
                    target=_name(stmt.target.id), annotation=stmt.annotation, value=None,
                    simple=1))
                if stmt.value is not None:
                    out.append(self.locate(gast.Assign(targets=[stmt.target],
                                                       value=stmt.value, type_comment=None),
                                           stmt))
            elif isinstance(stmt, _SCOPES):
                out.append(self.visit(stmt))  # a scope of its own: its blocks are not ours
            else:
                self._blocks(stmt, annotations)
                out.append(stmt)
        return out or [self.locate(gast.Pass(), stmts[0])]


def transform(node, ctx):
    if not census.may_hold(ctx, (gast.AnnAssign,)):
        return node
    return AnnotationTransformer(ctx).visit(node)
