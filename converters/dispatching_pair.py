"""What a converted module holds in place of each function it converts: the conversion,
defined first under the name `<name>__converted`, then the function as written, with
the user's decorators on top of `@__ag__.converted_twin(<name>__converted)` and one line
added at the head of its body, then `del <name>__converted`:

    def clip__converted(x):
        ...the conversion...

    @register
    @__ag__.converted_twin(clip__converted)
    def clip(x):
        if type(x) not in __ag__.plain and __ag__.stages(x): return __ag__.conversion()(x)
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


def builtin_type_name(module, alias=naming.MODULE_OPERATORS):
    """How the hand-over line names the builtin `type`: `type` itself, unless the file
    binds the name anywhere (a parameter `type` of `__exit__`, an assignment, an import,
    a `global`): then `<alias>.type`, the builtin through the operators."""
    for node in gast.walk(module):
        bound = ()
        if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            bound = (node.id,)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            bound = (node.name,)
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            bound = node.names
        elif isinstance(node, gast.alias):
            bound = ((node.asname or node.name).split(".")[0],)
        elif isinstance(node, gast.ExceptHandler) and node.name is not None:
            bound = (getattr(node.name, "id", node.name),)
        if "type" in bound:
            return f"{alias}.type"
    return "type"


def handover_line(node, alias=naming.MODULE_OPERATORS, type_name="type"):
    """`if (type(a) not in ag__.plain or ...) and ag__.stages(a, ...): return
    ag__.conversion()(a, ...)`, each argument tested (`*args` and `**kwargs` through
    `ag__.types_of`); for a function without parameters, `if ag__.stages(): ...`. The
    first test is C calls only (autograph_py/fast_path.py): a call on plain values adds
    no frame and costs a few tens of nanoseconds. `type_name`: `builtin_type_name`."""
    args = node.args
    positional = [a.id for a in (*args.posonlyargs, *args.args)]
    keyword_only = [a.id for a in args.kwonlyargs]
    values = [*positional, *keyword_only]
    tests = [f"{type_name}({name}) not in {alias}.plain" for name in values]
    call = list(positional)
    if args.vararg is not None:
        values.append(f"*{args.vararg.id}")
        call.append(f"*{args.vararg.id}")
        tests.append(f"not {alias}.plain.issuperset({alias}.types_of({args.vararg.id}))")
    call += [f"{name}={name}" for name in keyword_only]
    if args.kwarg is not None:
        values.append(f"*{args.kwarg.id}.values()")
        call.append(f"**{args.kwarg.id}")
        tests.append(f"not {alias}.plain.issuperset({alias}.types_of("
                     f"{args.kwarg.id}.values()))")
    stages = f"{alias}.stages({', '.join(values)})"
    if len(tests) == 1:
        stages = f"{tests[0]} and {stages}"
    elif tests:
        stages = f"({' or '.join(tests)}) and {stages}"
    return f"if {stages}: return {alias}.conversion()({', '.join(call)})"


def twin_decorator(node, alias=naming.MODULE_OPERATORS):
    return f"{alias}.converted_twin({twin_name(node)})"


def dispatching_pair(node, converted, alias=naming.MODULE_OPERATORS, type_name="type"):
    twin = converted
    twin.decorator_list = []
    twin.name = twin_name(node)
    as_written = copy_tree(node)
    as_written.decorator_list = [*as_written.decorator_list,
                                 gast.parse(twin_decorator(node, alias)).body[0].value]
    at = handover_index(node)
    as_written.body[at:at] = gast.parse(handover_line(node, alias, type_name)).body
    return [twin, as_written, gast.parse(f"del {twin.name}").body[0]]
