"""The conversion pipeline: which converters run, in which order, and why.

`convert_function(node, ctx)` converts one parsed function (or lambda);
`convert_module(module, ctx)` converts every function of a parsed file (each one
`module_functions` lists: in classes and under compound statements at any depth; each
beside its copy as written, `dispatching_pair`), reporting the ones it cannot convert
instead of failing; `to_source(node)` prints a tree.
"""
import copy
import dataclasses

import gast
from autograph_py.converters import (
    annotations,
    asserts,
    break_statements,
    call_trees,
    conditional_expressions,
    continue_statements,
    control_flow,
    directives,
    frame_walks,
    functions,
    gast_printer,
    lazy_operands,
    lists,
    logical_expressions,
    naming,
    private_names,
    return_statements,
    super_calls,
    traversal,
    unsupported,
    variables,
)
from autograph_py.converters.census import Census
from autograph_py.converters.copier import copy_tree
from autograph_py.converters.dispatching_pair import builtin_type_name, dispatching_pair
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.module_functions import module_functions
from autograph_py.converters.naming import Namer
from autograph_py.converters.transformer import locate_from_ancestors

PIPELINE = (
    # First: the rewrite Python's compiler does in a class body, before any pass reads a
    # name (and on all of the code, what other passes leave as written included).
    private_names,
    # Marks do_not_convert functions before any other pass can enter them.
    functions,
    # Next, so errors point at untouched user code and no work is wasted.
    unsupported,
    # Before control_flow moves statements into closures without the method's first
    # parameter (zero-argument `super()` reads it from its own frame).
    super_calls,
    # Before call_trees (which would wrap the directive call) and before jump lowering
    # (which restructures loop bodies, so the directive would no longer come first).
    directives,
    asserts,
    # Before call_trees and logical_expressions: its expr_repr argument is printed from
    # the tree and must read as the user wrote it.
    conditional_expressions,
    # Jumps are lowered from the innermost region outwards: break/continue belong to
    # loops, return to the function around them. Break lowering also moves loop `else`
    # clauses out of their loops; return lowering enters loops, whose bodies must
    # already be jump-free.
    break_statements,
    continue_statements,
    return_statements,
    # Before call_trees, which would hide `l.append(x)` inside converted_call.
    lists,
    # After lists, whose `:=` in a lazy operand rebinds the list; before call_trees, so
    # the value's description quotes the user's operator; before control_flow, which
    # stages the `if` it makes.
    lazy_operands,
    # Before call_trees, which leaves the operator call it writes as it is.
    frame_walks,
    call_trees,
    # Right before control_flow, whose closures may not hold an annotated `nonlocal`;
    # after every pass that restructures blocks (break/continue lowering, lazy_operands).
    annotations,
    # After every lowering above: its analyses must see the flags, `retval_` and the
    # list rebindings as ordinary assignments, and no jump may be left in a body.
    control_flow,
    # After control_flow, which generates `not break_ and test` loop tests.
    logical_expressions,
    # Last: wraps the loads control_flow marked as possibly undefined.
    variables,
)


def convert_function(node, ctx):
    """The converted copy of a FunctionDef (or Lambda); `ctx.namer` is renewed."""
    return _convert_in_place(copy_tree(node), ctx)


def _convert_in_place(node, ctx):
    census = Census.of(node)
    ctx = dataclasses.replace(ctx, namer=Namer(census.identifiers), census=census)
    for converter in PIPELINE:
        node = converter.transform(node, ctx)
    return locate_from_ancestors(node)


def _functions_of(module):
    """(container list, index, whether in a class body) of every function
    `module_functions` lists but the `async def`s (which conversion refuses)."""
    for qualname, body, i in module_functions(module):
        if isinstance(body[i], gast.FunctionDef):
            yield body, i, "." in qualname


def convert_file_function(node, ctx):
    """The converted copy of a file's function (or method), decorators kept: what
    `convert_module` puts in its place. Raises ConversionError.

    It reads the operators through the module's private alias (`naming.MODULE_OPERATORS`,
    which the module binds): a module's public name would be exported by
    `from module import *`."""
    undecorated = copy.copy(node)  # decorators would apply to the conversion twice
    undecorated.decorator_list = []
    converted = _convert_in_place(copy_tree(undecorated), ctx)
    for name in traversal.walk(converted):
        if name.__class__ is gast.Name and name.id == naming.OPERATORS:
            name.id = naming.MODULE_OPERATORS
    converted.decorator_list = copy_tree(node.decorator_list)
    return converted


def convert_module(module, ctx):
    """(converted module, [ConversionError]); each function conversion changes is
    replaced by its `dispatching_pair` (as written, then converted); unconvertible
    functions stay as they are."""
    original, module = module, copy_tree(module)
    problems = []
    pairs = []
    type_name = builtin_type_name(original)
    for (body, i, in_class), (original_body, _, _) in zip(_functions_of(module),
                                                          _functions_of(original)):
        if functions.is_do_not_convert(body[i]):
            continue
        try:
            converted = convert_file_function(original_body[i],
                                              dataclasses.replace(ctx, class_cell=in_class))
        except ConversionError as e:
            problems.append(e)
            continue
        if gast.dump(converted) != gast.dump(original_body[i]):
            pairs.append((body, i, dispatching_pair(original_body[i], converted,
                                                            type_name=type_name)))
    for body, i, pair in reversed(pairs):  # later indices first: earlier ones stay valid
        body[i:i + 1] = pair
    return module, problems


def to_source(node):
    """Python source of a gast node (or list of statements)."""
    if isinstance(node, list):
        return '\n'.join(to_source(n) for n in node)
    return gast_printer.to_source(node)
