"""Read a live function's source (or a file's text) into gast.

`parse_function(fn)` returns `(node, source_file, source_lines)`: the FunctionDef (with
its decorators removed) or the Lambda of `fn`, with line numbers ABSOLUTE in
`source_file`; `source_lines` are the lines `inspect` found for it. It handles methods,
nested functions, decorated functions and lambdas sharing a line with other code (the
lambda is picked by line, parameter names and code positions). `parse_module(text,
filename)` parses a whole file. Missing source and syntax errors raise
`ConversionError` located in the user's file.
"""
import ast
import inspect
import linecache
import textwrap
import threading

import gast
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.gast_ast import ast_to_gast

# CPython 3.11 tracks the depth of the AST objects `ast.parse` builds in one counter per
# interpreter (CPython issue gh-106905), so two threads parsing at once may fail with
# "SystemError: AST constructor recursion depth mismatch". Conversions run in any
# thread: every parse of the converters goes through `parse_ast`, under one lock.
_PARSE_LOCK = threading.Lock()


def parse_ast(text, filename='<unknown>'):
    """`ast.parse(text, filename)`, safe to call from several threads at once."""
    with _PARSE_LOCK:
        return ast.parse(text, filename)


def _unwrap(fn):
    fn = inspect.unwrap(getattr(fn, '__func__', fn))
    if not hasattr(fn, '__code__'):
        raise TypeError(f'{fn!r} is not a Python function')
    return fn


def _dedent(lines):
    """Dedent a block; lines less indented than the first (continued strings) stay."""
    text = textwrap.dedent(''.join(lines))
    try:
        parse_ast(text)
        return text
    except SyntaxError:
        first = lines[0][:len(lines[0]) - len(lines[0].lstrip())]
        return ''.join(line[len(first):] if line.startswith(first) else line
                       for line in lines)


def _parse(text, filename, line_offset=0):
    try:
        tree = parse_ast(text, filename)
    except SyntaxError as e:
        raise ConversionError(e.msg, filename, (e.lineno or 1) + line_offset,
                              e.offset) from e
    if line_offset:
        ast.increment_lineno(tree, line_offset)
    return ast_to_gast(tree)


def _unsupported(code, reason):
    return ConversionError(f'cannot convert {code.co_name}: {reason}', code.co_filename,
                           code.co_firstlineno)


def parse_function(fn):
    fn = _unwrap(fn)
    code = fn.__code__
    if code.co_name == '<lambda>':
        return _parse_lambda(fn)
    try:
        lines, first_line = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise _unsupported(code, 'its source code is not available (was it defined '
                                 'in an interactive session or with exec?)') from e
    module = _parse(_dedent(lines), code.co_filename, first_line - 1)
    node = module.body[0]
    if isinstance(node, gast.AsyncFunctionDef):
        raise _unsupported(code, 'async functions are not supported')
    if not isinstance(node, gast.FunctionDef):
        raise _unsupported(code, 'its source is not a function definition')
    node.decorator_list = []
    return node, code.co_filename, lines


def _parse_lambda(fn):
    code = fn.__code__
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    if not lines:
        raise _unsupported(code, 'its source code is not available (was it defined '
                                 'in an interactive session or with exec?)')
    module = _parse(''.join(lines), code.co_filename)
    params = list(inspect.signature(fn).parameters)
    candidates = [n for n in gast.walk(module)
                  if isinstance(n, gast.Lambda) and n.lineno == code.co_firstlineno
                  and _lambda_params(n) == params]
    if len(candidates) > 1:
        candidates = _by_code_positions(candidates, code)
    if len(candidates) != 1:
        raise _unsupported(code, 'cannot tell which lambda of this line it is; '
                                 'define it on a line of its own')
    return candidates[0], code.co_filename, [lines[code.co_firstlineno - 1]]


def _lambda_params(node):
    args = node.args
    return [a.id for a in args.posonlyargs + args.args + [args.vararg] + args.kwonlyargs +
            [args.kwarg] if a is not None]


def _by_code_positions(candidates, code):
    """The innermost lambda whose body spans every position of `code` on its line."""
    cols = [(c, e) for line, end, c, e in code.co_positions()
            if line == code.co_firstlineno == end and c is not None and e > c]

    def spans(node):
        body = node.body
        return all(body.col_offset <= c and e <= body.end_col_offset for c, e in cols
                   ) and body.end_lineno == body.lineno

    fitting = [n for n in candidates if spans(n)]
    fitting.sort(key=lambda n: n.body.end_col_offset - n.body.col_offset)
    return fitting[:1]


def parse_module(source_text, filename='<string>'):
    """The gast Module of a whole file's text."""
    return _parse(source_text, filename)
