"""Private names mangled as Python's compiler mangles them in a class body.

In the code of a class body (its methods, and the functions, lambdas and comprehensions
nested in them) the compiler rewrites every identifier `__spam` (two leading
underscores, not ending in two) to `_Class__spam`: variables, parameters, attribute
names (`self.__v`), names of nested functions and classes, `global`/`nonlocal` names,
imported names (`from m import __x` imports `_A__x`);
keyword names of calls stay as written. A method converted at run time is compiled
again outside its class, where nothing would mangle: `self.__v` would look up `__v`,
and a closure cell the original names `_A__v` would be missed. So when
`ctx.class_name` names the class the function was written in, this pass does the
compiler's rewrite first; a nested `def __f` or `class __f` keeps its name (the
compiler names the function `__f` and binds `_A__f`), followed by `_A__f = __f`. The
body of a class nested in the function is left to the compiler, which mangles it with
that class's own name, as it did the original. The function's own name is the
loader's, never renamed. Output
that is compiled again inside the class (`autograph convert`) needs no rewrite
(`class_name` None).
"""
import gast
from autograph_py.converters import templates, traversal


def class_name_of(qualname):
    """The class whose body holds the function with this `__qualname__` (its code's
    `co_qualname`), else None: `A.f`, `A.f.<locals>.g` -> `A`; `f.<locals>.g` -> None."""
    parts = qualname.split('.')
    for outer, inner in zip(reversed(parts[:-1]), reversed(parts[1:])):
        if '<locals>' not in (outer, inner):
            return outer
    return None


def mangle(name, class_name):
    """`name` as the compiler spells it in the body of class `class_name`."""
    if not name.startswith('__') or name.endswith('__') or '.' in name:
        return name
    stripped = class_name.lstrip('_')
    return f'_{stripped}{name}' if stripped else name


def _rename(node, class_name):
    if isinstance(node, gast.Name):
        node.id = mangle(node.id, class_name)
    elif isinstance(node, gast.Attribute):
        node.attr = mangle(node.attr, class_name)
    elif isinstance(node, (gast.Global, gast.Nonlocal)):
        node.names = [mangle(n, class_name) for n in node.names]
    elif isinstance(node, gast.alias):  # `import __m` imports `_A__m` too
        node.name = mangle(node.name, class_name)
        node.asname = node.asname and mangle(node.asname, class_name)


def _bind_mangled(stmts, class_name):
    """`stmts` with `_A__f = __f` after each `def __f` / `class __f`: the compiler binds
    the mangled name but names the function or class as written (`__name__`)."""
    out = []
    for stmt in stmts:
        out.append(stmt)
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            mangled = mangle(stmt.name, class_name)
            if mangled != stmt.name:
                out += templates.replace('mangled = name', mangled=mangled, name=stmt.name)
    return out


def _outside_nested_classes(node):
    """`node` and the nodes under it, but of a nested class only what runs where it is
    defined (its bases, keywords and decorators): the compiler mangles its body."""
    todo = [node]
    while todo:
        child = todo.pop()
        yield child
        if isinstance(child, gast.ClassDef) and child is not node:
            todo += child.bases + child.keywords + child.decorator_list
        else:
            todo += traversal.children(child)


def transform(node, ctx):
    class_name = ctx.class_name
    if class_name is None:
        return node
    for child in _outside_nested_classes(node):
        _rename(child, class_name)
    for child in list(_outside_nested_classes(node)):
        if isinstance(child, gast.ClassDef) and child is not node:
            continue
        for field in ('body', 'orelse', 'finalbody'):
            stmts = getattr(child, field, None)
            if isinstance(stmts, list):
                setattr(child, field, _bind_mangled(stmts, class_name))
    return node
