"""What a function holds as the user wrote it, found in one walk before any pass runs.

`Census.of(tree)`: `identifiers` (every identifier of the tree, what `Namer` must never
hand out), `kinds` (the node classes in it) and `attributes` (the attribute names it
reads or writes). The pipeline takes it while it walks the tree for the `Namer` anyway.

A converter may skip itself when the census shows nothing for it to do (a walk of the
whole tree saved: most functions have no ternary, no list method call, nothing
unsupported), but only for constructs that no earlier pass generates, since the census
does not follow the passes' changes: `unsupported` (yield, await, async),
`conditional_expressions` (ternaries) and `lists` (`.append`, `.pop`), which no
template of the passes before them contains, and `lazy_operands` (`nonlocal`, `:=`,
which only `lists` makes before it, from a `.pop`); likewise `functions` (nested classes,
`do_not_convert`, yields, `async def`), `super_calls` (the name `super`), `directives`
(`set_loop_options`, `set_element_type`), `asserts`, `break_statements` (and loop
`else` clauses, which it moves out of their loops), `continue_statements` and
`annotations` (annotated assignments). `logical` tells whether the user wrote a boolean
operator, a `not`, a comparison chain or an `in`: `logical_expressions` runs in full
then (or where `lazy_operands` may have run), and on the tests lowered jumps made
otherwise.
Without a census (`ctx.census` None, as when a test runs one converter alone) a
converter always runs.
"""
import dataclasses

import gast
from autograph_py.converters import naming, traversal


@dataclasses.dataclass(frozen=True)
class Census:
    identifiers: frozenset
    kinds: frozenset
    attributes: frozenset
    logical: bool = True
    loop_else: bool = True  # whether a loop has an `else` clause

    @classmethod
    def of(cls, tree):
        identifiers, kinds, attributes = set(), set(), set()
        logical = loop_else = False
        for node in traversal.walk(tree):
            node_class = node.__class__
            kinds.add(node_class)
            # Names and attributes first: most nodes with anything to count are one.
            if node_class is gast.Name:
                identifiers.add(node.id)
            elif node_class is gast.Attribute:
                attributes.add(node.attr)
            elif node_class in _LOGICAL:
                logical = logical or _is_logical(node)
            elif node_class in _LOOPS:
                loop_else = loop_else or bool(node.orelse)
            elif node_class in _BINDING:
                identifiers.update(naming.identifiers(node))
        return cls(frozenset(identifiers), frozenset(kinds), frozenset(attributes), logical,
                   loop_else)

    def has_any(self, kinds):
        return not self.kinds.isdisjoint(kinds)

    def mentions(self, name):
        """Whether `name` appears as an identifier or an attribute name."""
        return name in self.identifiers or name in self.attributes


_LOOPS = (gast.For, gast.AsyncFor, gast.While)
_LOGICAL = (gast.BoolOp, gast.UnaryOp, gast.Compare)
# Nodes other than Name with identifiers of their own (`naming.identifiers`).
_BINDING = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Global,
            gast.Nonlocal, gast.alias, gast.ExceptHandler)


def _is_logical(node):
    """Whether `node` is what `logical_expressions` rewrites."""
    if isinstance(node, gast.BoolOp):
        return True
    if isinstance(node, gast.UnaryOp):
        return isinstance(node.op, gast.Not)
    return isinstance(node, gast.Compare) and (
        len(node.ops) > 1 or isinstance(node.ops[0], (gast.In, gast.NotIn)))


def may_hold(ctx, kinds=(), attributes=()):
    """Whether the function being converted may hold a node of `kinds` or an attribute
    named in `attributes` (always, without a census)."""
    census = ctx.census
    return census is None or census.has_any(kinds) or not census.attributes.isdisjoint(
        attributes)


def mentions(ctx, *names):
    """Whether the function being converted names one of `names` (always, without a
    census)."""
    return ctx.census is None or any(ctx.census.mentions(name) for name in names)
