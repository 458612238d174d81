"""Zero-argument `super()` spelled out, so it keeps working inside generated closures.

    super().m(x)   ->  super(__class__, self).m(x)

Python's zero-argument `super()` reads two things from the frame it runs in: the
`__class__` cell and the current value of the frame's first parameter. Converted code
moves statements into closures (`if_body`, `loop_body`, the operands of `and`/`or`, ...)
whose frames have no parameter, where it would fail with `RuntimeError: super(): no
arguments`. Reading both by name is what Python does, spelled out: `__class__` reaches
the same cell from any nested function, and the first parameter's name gives its current
value wherever the body runs (a rebinding of it included, as Python reads it at the call).

Rewritten only where the result is certain to be the same:
- the function has a `__class__` cell (`ctx.class_cell`: it is defined in a class body);
  elsewhere `super()` keeps failing as Python makes it fail;
- `super` is the builtin: nothing in the tree binds the name `super` (a module-level
  `super = ...` is not visible here; see docs/limitations.md);
- the call is in the innermost function (a `def` or a lambda) that has a positional first
  parameter, and not in a scope of its own where Python reads another first argument: a
  generator expression, or a comprehension before Python 3.12 (PEP 709 inlines them
  since). Without a positional parameter `super()` stays, failing as in Python.
"""
import sys

import gast
from autograph_py.converters import census, templates, traversal
from autograph_py.converters.transformer import Transformer


def _first_parameter(args):
    positional = args.posonlyargs + args.args
    return positional[0].id if positional else None


def _binds_super(tree):
    for node in traversal.walk(tree):
        if isinstance(node, gast.Name) and node.id == 'super' and not isinstance(
                node.ctx, gast.Load):
            return True
        if isinstance(node, (gast.FunctionDef, gast.ClassDef)) and node.name == 'super':
            return True
        if isinstance(node, gast.alias) and (node.asname or node.name) == 'super':
            return True
    return False


class SuperCallTransformer(Transformer):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.first_parameters = []  # per enclosing function or scope, innermost last

    def _scope(self, node, first_parameter):
        self.first_parameters.append(first_parameter)
        node = self.generic_visit(node)
        self.first_parameters.pop()
        return node

    def visit_FunctionDef(self, node):
        return self._scope(node, _first_parameter(node.args))

    visit_Lambda = visit_FunctionDef

    def _own_scope(self, node):
        # Its frame's first argument is the comprehension's `.0` iterator.
        return self._scope(node, None)

    visit_GeneratorExp = _own_scope
    if sys.version_info < (3, 12):
        visit_ListComp = visit_SetComp = visit_DictComp = _own_scope

    def visit_Call(self, node):
        node = self.generic_visit(node)
        first = self.first_parameters[-1] if self.first_parameters else None
        if (first is None or not isinstance(node.func, gast.Name) or node.func.id != 'super'
                or node.args or node.keywords):
            return node
        return templates.replace_as_expression('super(__class__, first)', first=first)


def transform(node, ctx):
    if not (ctx.class_cell and census.mentions(ctx, 'super')) or _binds_super(node):
        return node
    return SuperCallTransformer(ctx).visit(node)
