"""Turn converted source into a live function that behaves like the original.

Contract: `compile_factory(fn, converted_node, source)` compiles `source` (the converted
function's definition) once, inside a factory whose parameters are `ag__` and the
original's free variables; `instantiate(factory, fn, operators)` then builds, for each
function object of that code, a function with the original's globals, closure cells
(shared, so `nonlocal` writes stay visible both ways), defaults, keyword defaults, name,
qualname, module and doc, its generated closures named as the user's function
(`frame_names`; defaults and annotations are never evaluated again: the
factory's copy of the `def` has None in their place). The function's own name stays a
global (or the original's cell), so recursion by name reaches what the user's module
binds. The generated source is registered in `linecache` under a name of its own, so
tracebacks show it, and in the source map, so errors name the user's lines.
"""

import ast
import copy
import itertools
import linecache
import textwrap
import types

import gast

from autograph_py import frame_names, source_map
from autograph_py.converters import naming
from autograph_py.converters.gast_ast import gast_to_ast

_counter = itertools.count()
_FACTORY = "autograph_factory__"
GENERATED_PREFIX = "<autograph_py converted "
# The code names of the scaffolding a generated file runs around the user's function.
SCAFFOLDING = frozenset({"<module>", _FACTORY})


def _generated_filename(fn):
    return f"{GENERATED_PREFIX}{fn.__module__}.{fn.__qualname__} #{next(_counter)}>"


def _without_def_time_expressions(node):
    """The definition's source with defaults and annotations replaced by None.

    The factory executes the `def`; its defaults and annotations would be evaluated there,
    where the user's names (globals, the enclosing function's locals) are not visible.
    `instantiate` takes the original's evaluated defaults instead. `ast.unparse` prints a
    signature on one line, so the text keeps the line structure of `to_code`'s.
    """
    none = gast.Constant(value=None, kind=None)
    args = copy.copy(node.args)
    args.defaults = [none for _ in args.defaults]
    args.kw_defaults = [None if d is None else none for d in args.kw_defaults]
    for field in ("posonlyargs", "args", "kwonlyargs"):
        setattr(args, field, [_unannotated(a) for a in getattr(args, field)])
    args.vararg = args.vararg and _unannotated(args.vararg)
    args.kwarg = args.kwarg and _unannotated(args.kwarg)
    stripped = copy.copy(node)
    stripped.args, stripped.returns = args, None
    return ast.unparse(gast_to_ast(stripped))


def _unannotated(arg):
    arg = copy.copy(arg)
    arg.annotation = None
    return arg


def compile_factory(fn, converted_node, source):
    """Compile the factory once; the result is reusable for every closure of `fn`'s code."""
    freevars = fn.__code__.co_freevars
    params = ", ".join((naming.OPERATORS,) + freevars)
    name = converted_node.name
    # Without `global`, the def would bind its name in the factory's scope, and a function
    # calling itself by its global name would get a cell instead of the module's global.
    # A name that is a free variable of the original already is the user's cell.
    declare = "" if name in freevars else f"    global {name}\n"
    body = textwrap.indent(_without_def_time_expressions(converted_node), "    ")
    factory_source = f"def {_FACTORY}({params}):\n{declare}{body}\n    return {name}\n"
    filename = _generated_filename(fn)
    # The generated source starts after the factory's header lines.
    source_map.register(filename, source, converted_node, 1 + bool(declare),
                        fn.__code__.co_filename)
    code = compile(factory_source, filename, "exec")
    namespace = {}
    exec(code, namespace)  # defines the factory only: runs no user code
    # Tracebacks show the generated text the code was compiled from.
    linecache.cache[filename] = (len(factory_source), None,
                                 factory_source.splitlines(True), filename)
    return namespace[_FACTORY]


def instantiate(factory, fn, operators_module):
    """A function running the converted code with `fn`'s globals, cells and defaults."""
    freevars = fn.__code__.co_freevars
    cells = dict(zip(freevars, fn.__closure__ or ()))
    template = factory(operators_module, *([None] * len(freevars)))
    code = getattr(factory, "renamed_code", None)  # one factory per code of the user's
    if code is None:
        code = factory.renamed_code = frame_names.as_the_users(template.__code__, fn.__code__)
    closure = []
    for name in code.co_freevars:
        if name in cells:
            closure.append(cells[name])
        elif name == naming.OPERATORS:
            closure.append(types.CellType(operators_module))
        else:
            raise RuntimeError(f"converted code has an unexpected free variable {name!r}")
    converted = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                                   tuple(closure))
    converted.__kwdefaults__ = fn.__kwdefaults__
    converted.__qualname__ = fn.__qualname__
    converted.__module__ = fn.__module__
    converted.__doc__ = fn.__doc__
    converted.__dict__.update(fn.__dict__)
    return converted
