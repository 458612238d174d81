"""What a converted module holds in place of each function it converts: the conversion,
defined first under the name `<name>__converted`, then the function as written, with
the user's decorators on top of `@__ag__.converted_twin(<name>__converted)` and one line
added at the head of its body, then `del <name>__converted`:

    def clip__converted(x):
        ...the conversion...

    @register
    @__ag__.converted_twin(clip__converted)
    def clip(x):
        if __ag__.stages(x): return __ag__.conversion()(x)
        ...the body as written...
    del clip__converted

(`__ag__` is the module's private alias of the operators, docs/converters.md.) A call that
stages nothing (autograph_py/fast_path.py) runs the function as written, in
its own frame and no other; a staging call is handed to the conversion. The decorators
apply once, to the function as written, under its own name, as in the original file.

Contract: `dispatching_pair(node, converted)` returns those statements for the file's
FunctionDef `node` and its conversion `converted`; `twin_name(node)` is the
conversion's name; `handover_line(node)` is the added first line (its text, without
indentation); `handover_index(node)` is the index in `node.body` it goes before (after
the docstring). `autograph convert` writes the same statements with the user's own text.
"""

import gast
from autograph_py.converters import naming
from autograph_py.converters.copier import copy_tree

TWIN_SUFFIX = "__converted"


def twin_name(node):
    return node.name + TWIN_SUFFIX


def _is_docstring(stmt):
    return (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)
            and isinstance(stmt.value.value, str))


def handover_index(node):
    return 1 if len(node.body) > 1 and _is_docstring(node.body[0]) else 0


def handover_line(node, alias=naming.MODULE_OPERATORS):
    """`if ag__.stages(<every argument>): return ag__.conversion()(<the same call>)`."""
    args = node.args
    positional = [a.id for a in (*args.posonlyargs, *args.args)]
    keyword_only = [a.id for a in args.kwonlyargs]
    values = [*positional, *keyword_only]
    call = list(positional)
    if args.vararg is not None:
        values.append(f"*{args.vararg.id}")
        call.append(f"*{args.vararg.id}")
    call += [f"{name}={name}" for name in keyword_only]
    if args.kwarg is not None:
        values.append(f"*{args.kwarg.id}.values()")
        call.append(f"**{args.kwarg.id}")
    return (f"if {alias}.stages({', '.join(values)}): "
            f"return {alias}.conversion()({', '.join(call)})")


def twin_decorator(node, alias=naming.MODULE_OPERATORS):
    return f"{alias}.converted_twin({twin_name(node)})"


def dispatching_pair(node, converted, alias=naming.MODULE_OPERATORS):
    twin = converted
    twin.decorator_list = []
    twin.name = twin_name(node)
    as_written = copy_tree(node)
    as_written.decorator_list = [*as_written.decorator_list,
                                 gast.parse(twin_decorator(node, alias)).body[0].value]
    at = handover_index(node)
    as_written.body[at:at] = gast.parse(handover_line(node, alias)).body
    return [twin, as_written, gast.parse(f"del {twin.name}").body[0]]
