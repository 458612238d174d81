"""Fast constructors for the nodes converters make most: names and their contexts.

`name(identifier, ctx_class)` is `gast.Name(id=identifier, ctx=ctx_class(),
annotation=None, type_comment=None)`, and `context(ctx_class)` stands for
`ctx_class()`: gast's constructors check their arguments field by field, which was a
tenth of printing-and-converting a file when every generated name took two. A context
(`Load`, `Store`, `Param`, `Del`) holds nothing, so one instance of each serves every
node, as CPython's parser and `copier.copy_tree` share them: converters replace a node's
context, never change one.
"""
import gast

_new_node = gast.AST.__new__
_CONTEXTS = {ctx_class: ctx_class() for ctx_class in (gast.Load, gast.Store, gast.Del,
                                                       gast.Param)}


def context(ctx_class):
    return _CONTEXTS[ctx_class]


def name(identifier, ctx_class=gast.Load):
    node = _new_node(gast.Name)
    node.__dict__.update(id=identifier, ctx=_CONTEXTS[ctx_class], annotation=None,
                         type_comment=None)
    return node
