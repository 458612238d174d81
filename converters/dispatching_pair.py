"""What a converted module holds in place of each function it converts: the conversion,
defined first under the function's own name, then the function as written, with the
user's decorators on top of `@__ag__.converted_twin(<name>)` and one line added at the
head of its body:

    def clip(x):
        ...the conversion...

    @register
    @__ag__.converted_twin(clip)
    def clip(x):
        if type(x) not in __ag__.plain and __ag__.stages(x): return __ag__.conversion()(x)
        ...the body as written...

Decorators are evaluated before the function they decorate is bound, so
`converted_twin(clip)` reads the conversion, and the function as written then takes
the name. Tools that read the source (pyclbr, class browsers) see each name defined
where the original defines it, and no other name. When the function's header reads its
own name before the def rebinds it (`@size.setter def size`, a default `_f=f`), the
name must keep its old value while the header runs: the conversion is then decorated
`@__ag__.twin_below(size)` (the name stays bound to what it was, the conversion waits
for the function below) and the function as written `@__ag__.converted_twin()`.

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


def _header_reads_own_name(node):
    """Whether evaluating `node`'s decorators, defaults or annotations reads the name
    the def binds (these run before the def rebinds it)."""
    header = [*node.decorator_list, *node.args.defaults,
              *(d for d in node.args.kw_defaults if d is not None), node.returns,
              *(a.annotation for a in (*node.args.posonlyargs, *node.args.args,
                                       *node.args.kwonlyargs, node.args.vararg,
                                       node.args.kwarg) if a is not None)]
    return any(isinstance(n, gast.Name) and n.id == node.name
               for part in header if part is not None for n in gast.walk(part))


def twin_decorators(node, alias=naming.MODULE_OPERATORS):
    """(the decorator of the conversion or None, the one added to the function as
    written): `(None, converted_twin(name))`, or when the header reads the function's
    name, `(twin_below(name), converted_twin())`."""
    if _header_reads_own_name(node):
        return f"{alias}.twin_below({node.name})", f"{alias}.converted_twin()"
    return None, f"{alias}.converted_twin({node.name})"


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


def dispatching_pair(node, converted, alias=naming.MODULE_OPERATORS, type_name="type"):
    on_twin, on_original = twin_decorators(node, alias)
    twin = converted
    twin.decorator_list = [] if on_twin is None else [_expression(on_twin)]
    twin.name = node.name
    as_written = copy_tree(node)
    as_written.decorator_list = [*as_written.decorator_list, _expression(on_original)]
    at = handover_index(node)
    as_written.body[at:at] = gast.parse(handover_line(node, alias, type_name)).body
    return [twin, as_written]


def _expression(text):
    return gast.parse(text).body[0].value
