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
which only `lists` makes before it, from a `.pop`). Without a census (`ctx.census` None, as
when a test runs one converter alone) a converter always runs.
"""
import dataclasses

from autograph_py.converters import naming, traversal


@dataclasses.dataclass(frozen=True)
class Census:
    identifiers: frozenset
    kinds: frozenset
    attributes: frozenset

    @classmethod
    def of(cls, tree):
        identifiers, kinds, attributes = set(), set(), set()
        for node in traversal.walk(tree):
            kinds.add(node.__class__)
            identifiers.update(naming.identifiers(node))
            attribute = node.__dict__.get('attr')
            if attribute is not None:
                attributes.add(attribute)
        return cls(frozenset(identifiers), frozenset(kinds), frozenset(attributes))

    def has_any(self, kinds):
        return not self.kinds.isdisjoint(kinds)


def may_hold(ctx, kinds=(), attributes=()):
    """Whether the function being converted may hold a node of `kinds` or an attribute
    named in `attributes` (always, without a census)."""
    census = ctx.census
    return census is None or census.has_any(kinds) or not census.attributes.isdisjoint(
        attributes)
