"""Printing gast trees as `ast.unparse` prints them, without translating them to `ast`.

Contract: `Printer().visit(tree)` is `ast.unparse(gast_to_ast(tree))`, character for
character, for any gast tree (a function, a statement, an expression), on every Python
version this project supports. Locations are not needed (`fix_missing_locations` is not).

Why: translating each converted function to `ast` only to print it was a tenth of
`autograph convert`. The standard library's printer (`ast._Unparser`, the code of
`ast.unparse`) dispatches on class names, which gast shares with `ast`; what differs is
where it tests classes (`isinstance(node, Constant)` for docstrings, `elif` chains,
f-strings, `3 .real`, `x[a, b]`) and three node shapes: a parameter is a `Name` in the
`Param` context (with its annotation) instead of an `arg`, an except handler's name is a
`Name` instead of a str, and an `Assign`'s `type_comment` is dropped by the translation.
So on Python 3.9-3.11 (where `gast_ast` knows the translation exactly) the printer's own
methods are used with their global names bound to gast's classes, and the three shapes
get methods of their own; elsewhere it translates and prints, as before.
"""
import ast
import sys
import types

import gast
from autograph_py.converters.gast_ast import fix_missing_locations, gast_to_ast

# The class names the standard printer's methods test nodes against.
_TESTED_CLASSES = ('AsyncFunctionDef', 'ClassDef', 'Constant', 'Expr', 'FormattedValue',
                   'FunctionDef', 'If', 'JoinedStr', 'Module', 'Name', 'Tuple')
DIRECT = (3, 9) <= sys.version_info[:2] <= (3, 11)


def _with_globals(function, namespace):
    copy = types.FunctionType(function.__code__, namespace, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    return copy


class _GastPrinter(ast._Unparser):
    """`ast._Unparser` reading gast trees (see the module docstring)."""

    def get_type_comment(self, node):
        # The translation drops an Assign's; a module's `# type: ignore` lines do not
        # exist in gast (no `lineno` is needed).
        if isinstance(node, gast.Assign) or node.type_comment is None:
            return None
        return f" # type: {node.type_comment}"

    def _write_parameter(self, parameter):
        """A parameter (a Name), as the standard printer's `visit_arg` writes an `arg`:
        only inside `arguments` does a Name print its annotation."""
        self.write(parameter.id)
        if parameter.annotation is not None:
            self.write(": ")
            self.traverse(parameter.annotation)

    def _star_parameter(self, prefix, parameter):
        self.write(prefix)
        if parameter is not None:
            self._write_parameter(parameter)

    def visit_arguments(self, node):
        positional = node.posonlyargs + node.args
        defaults = [None] * (len(positional) - len(node.defaults)) + node.defaults
        parts = []  # a function writing each comma-separated part
        for index, (parameter, default) in enumerate(zip(positional, defaults), 1):
            parts.append(lambda p=parameter, d=default: self._parameter(p, d))
            if index == len(node.posonlyargs):
                parts.append(lambda: self.write("/"))
        if node.vararg is not None or node.kwonlyargs:
            parts.append(lambda: self._star_parameter("*", node.vararg))
        for parameter, default in zip(node.kwonlyargs, node.kw_defaults):
            parts.append(lambda p=parameter, d=default: self._parameter(p, d))
        if node.kwarg is not None:
            parts.append(lambda: self._star_parameter("**", node.kwarg))
        for i, write in enumerate(parts):
            if i:
                self.write(", ")
            write()

    def _parameter(self, parameter, default):
        self._write_parameter(parameter)
        if default:
            self.write("=")
            self.traverse(default)

    def visit_ExceptHandler(self, node):
        # (`except*` exists from Python 3.11 on; 3.10's printer has no flag for it.)
        self.fill("except*" if getattr(self, "_in_try_star", False) else "except")
        if node.type:
            self.write(" ")
            self.traverse(node.type)
        if node.name:
            self.write(" as ")
            self.write(node.name.id)
        with self.block():
            self.traverse(node.body)


if DIRECT:
    _NAMESPACE = {**vars(ast), **{name: getattr(gast, name) for name in _TESTED_CLASSES}}
    for _name, _method in vars(ast._Unparser).items():
        # (Methods made by a decorator, `contextmanager`'s, have its globals: kept.)
        if (isinstance(_method, types.FunctionType) and _method.__globals__ is vars(ast)
                and _name not in vars(_GastPrinter)):
            setattr(_GastPrinter, _name, _with_globals(_method, _NAMESPACE))
    Printer = _GastPrinter
    If = gast.If  # what an `if` is in the trees printed

    def printable(tree):
        return tree
else:
    Printer = ast._Unparser
    If = ast.If

    def printable(tree):
        """What `Printer` prints for a gast tree."""
        return fix_missing_locations(gast_to_ast(tree))


def to_source(tree):
    """`ast.unparse` of the gast tree (a node)."""
    return Printer().visit(printable(tree))
