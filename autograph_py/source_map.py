"""Source maps: from lines of generated code back to the user's file and line.

Contract: `register(generated_filename, source, origin_tree, line_offset, user_filename)`
records, for every line of the generated source, the user's line of the construct that
produced it (converters put the user's absolute line numbers on every node they emit).
`lookup(filename, lineno)` answers `(user_filename, user_lineno)` or None; it is
registered with the runtime so ops created by converted code name the user's line.
"""

import ast

import gast

from autograph_py.converters.parser import parse_ast

_maps = {}  # generated filename -> (user filename, {generated line: user line})


def register(generated_filename, source, origin_tree, line_offset, user_filename):
    """Pair the nodes of `origin_tree` (gast, user lines) with `source` re-parsed."""
    reparsed = parse_ast(source)  # under the converters' parse lock (threads)
    # gast nodes subclass ast.AST but are other classes: compare like with like.
    origin = gast.gast_to_ast(origin_tree) if type(origin_tree).__module__.startswith(
        "gast") else origin_tree
    if not isinstance(origin, ast.Module):
        reparsed = reparsed.body[0]
    lines = {}
    for generated, original in zip(ast.walk(reparsed), ast.walk(origin)):
        if type(generated) is not type(original):
            break  # structure differs from here on: keep what matched
        user_line = getattr(original, "lineno", None)
        gen_line = getattr(generated, "lineno", None)
        if user_line and gen_line:
            lines.setdefault(gen_line + line_offset, user_line)
    _maps[generated_filename] = (user_filename, lines)


def lookup(filename, lineno):
    entry = _maps.get(filename)
    if entry is None:
        return None
    user_filename, lines = entry
    while lineno > 0:  # generated lines between mapped ones belong to the one above
        if lineno in lines:
            return user_filename, lines[lineno]
        lineno -= 1
    return None
