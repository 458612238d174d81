"""Fresh, readable names that never clash with a name of the converted code.

A `Namer` is built from a whole tree (every identifier in it is taken, including
globals it reads, attribute names are not identifiers and do not count) and hands out
`base`, `base_1`, `base_2`, ... skipping anything taken or handed out before.

It also remembers what the invented state symbols mean (`new_symbol('break_',
meaning='break flag')`), so generated calls can name them in the user's terms: `label`
gives `'<break flag>'` for such a symbol and the name itself for every other one. A user's
symbol never starts with `<`, which is how the runtime tells the two apart (a variable
the user called `break_count` is the user's).
"""
import gast
from autograph_py.converters import traversal

# The name generated code reads the operators through (the loader binds it in to_graph's
# closures), and the one a module `autograph convert` writes binds them to: a dunder, so
# that `from module import *` does not export it, code listing a module's own names
# (`vars(module)` but the dunders: CPython's test_operator) does not meet it, and a class
# body does not mangle it (docs/converters.md).
OPERATORS = 'ag__'
MODULE_OPERATORS = '__ag__'
RESERVED = frozenset({OPERATORS, MODULE_OPERATORS})


def identifiers(node):
    """The identifiers `node` itself binds or reads (not those of its children)."""
    if isinstance(node, gast.Name):
        return (node.id,)
    if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return (node.name,)
    if isinstance(node, (gast.Global, gast.Nonlocal)):
        return node.names
    if isinstance(node, gast.alias):
        return ((node.asname or node.name).split('.')[0],)
    if isinstance(node, gast.ExceptHandler) and node.name:
        return (node.name if isinstance(node.name, str) else node.name.id,)
    return ()


def _identifiers(tree):
    for node in traversal.walk(tree):
        yield from identifiers(node)


class Namer:
    def __init__(self, taken=()):
        self._taken = set(RESERVED) | set(taken)
        self._shared = {}
        self._meanings = {}
        # The next suffix to try per base: every smaller one is taken already, so the
        # search does not restart at `base` (a function with thousands of `if`s asks
        # for thousands of `if_body`s).
        self._next_suffix = {}

    @classmethod
    def for_tree(cls, tree):
        return cls(_identifiers(tree))

    def new_symbol(self, base, meaning=None):
        """A name never returned before and not used in the tree; `meaning` describes
        an invented symbol that generated code carries as state."""
        n = self._next_suffix.get(base, 0)
        name = f'{base}_{n}' if n else base
        while name in self._taken:
            n += 1
            name = f'{base}_{n}'
        self._taken.add(name)
        self._next_suffix[base] = n + 1
        if meaning is not None:
            self._meanings[name] = meaning
        return name

    def invented(self, meaning):
        """Whether a symbol meaning `meaning` was handed out."""
        return meaning in self._meanings.values()

    def label(self, symbol):
        """How generated calls name `symbol` (a str) to the runtime, for its messages."""
        meaning = self._meanings.get(symbol)
        return symbol if meaning is None else f'<{meaning}>'

    def shared_symbol(self, base):
        """One fresh name per base, reused: for parameters private to generated code."""
        if base not in self._shared:
            self._shared[base] = self.new_symbol(base)
        return self._shared[base]
