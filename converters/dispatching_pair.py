"""What a converted module holds in place of each function it converts: the function as
written, undecorated (the fast path: autograph_py/fast_path.py runs it when a call stages
nothing), then the conversion under the same name, with the function's decorators on top
of `@_ag__.converted_from(name)` (the module's private alias of the operators,
docs/converters.md), so that they apply once, to the dispatching function.

Contract: `dispatching_pair(node, converted)` returns those statements for the file's
FunctionDef `node` and its conversion `converted` (whose decorators are `node`'s);
`as_written_name(node)` is the name the copy as written is defined under: the function's
own, except when a decorator reads that name (`@size.setter` on `def size`): defining the
copy first would change what the decorator reads, so it is `<name>__as_written` and a
`del <name>__as_written` follows the conversion (`converted_from` gives the copy back its
name). `autograph convert` writes the same statements with the user's own text.
"""

import gast
from autograph_py.converters import naming
from autograph_py.converters.copier import copy_tree

AS_WRITTEN_SUFFIX = "__as_written"


def as_written_name(node):
    reads_own_name = any(isinstance(n, gast.Name) and n.id == node.name
                         for decorator in node.decorator_list for n in gast.walk(decorator))
    return node.name + AS_WRITTEN_SUFFIX if reads_own_name else node.name


def dispatch_decorator(name):
    return f"{naming.MODULE_OPERATORS}.converted_from({name})"


def dispatching_pair(node, converted):
    as_written = copy_tree(node)
    as_written.decorator_list = []
    as_written.name = as_written_name(node)
    dispatch = gast.parse(dispatch_decorator(as_written.name)).body[0].value
    converted.decorator_list = [*converted.decorator_list, dispatch]
    if as_written.name == node.name:
        return [as_written, converted]
    return [as_written, converted, gast.parse(f"del {as_written.name}").body[0]]
