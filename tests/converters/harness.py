"""Convert a live function and load the result with `ag__` bound to py_operators."""
import ast
import types

import gast
from autograph_py.converters import parser, pipeline
from autograph_py.converters.transformer import ConversionContext

from tests.converters import py_operators


def converted_node(fn):
    node, filename, _ = parser.parse_function(fn)
    return pipeline.convert_function(node, ConversionContext(filename=filename)), filename


def to_code(fn):
    return pipeline.to_source(converted_node(fn)[0])


def load(fn):
    """The converted `fn`, with its globals, closure values and defaults."""
    fn = getattr(fn, '__func__', fn)
    node, filename = converted_node(fn)
    # The real globals, so `global` writes are seen by both versions; closure cells of
    # the original are copied in by value.
    namespace = fn.__globals__
    namespace['ag__'] = py_operators
    if fn.__closure__:
        namespace = dict(namespace, **{name: cell.cell_contents for name, cell in
                                       zip(fn.__code__.co_freevars, fn.__closure__)})
    if isinstance(node, gast.Lambda):
        tree = ast.Expression(body=gast.gast_to_ast(node))
        return eval(compile(tree, filename, 'eval'), namespace)
    module = ast.Module(body=[gast.gast_to_ast(node)], type_ignores=[])
    exec(compile(module, filename, 'exec'), namespace)
    new = namespace[node.name]
    new = types.FunctionType(new.__code__, namespace, new.__name__, fn.__defaults__,
                             new.__closure__)
    new.__kwdefaults__ = fn.__kwdefaults__
    return new
