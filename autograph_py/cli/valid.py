"""What `autograph convert` writes is checked to be Python that compiles.

Parsing alone is not enough: Python refuses some parsed programs only when it compiles
them (its symbol table: `annotated name 'x' can't be nonlocal`, `no binding for
nonlocal 'x' found`). A conversion bug of that kind must never reach a user's file with
exit status 0, so the command compiles every output (to bytecode in memory: cheap
next to converting, and nothing is run).

Contract of `assemble_valid(lines, edits, name) -> (text, kept edits, [ConversionError])`:
`lines` are the file's lines (with their endings); each edit is `(start index, end
index, replacement text, blame)` where `blame` is `(qualname, def line)` of the
function the edit converts, or None for the runtime import. The text is `lines` with
the edits applied, compiled:
- an error inside a function's replacement drops that edit (the function is left as
  written) with `file:line: error: ...` at its `def` line, and the rest is compiled
  again; the runtime import goes when no function edit is left;
- an error in the user's own text (Python would refuse the input too, e.g. `return`
  outside a function, which the parser accepts) is reported at its line of the input,
  and the text is kept.
`compile_error(text, name)` is the SyntaxError compiling `text` raises, or None.
"""

import warnings

from autograph_py.cli.source import split_lines
from autograph_py.converters.errors import ConversionError


def compile_error(text, name):
    try:
        with warnings.catch_warnings():
            # The user's own text may warn (an invalid escape sequence `"\d"`): Python
            # tells them when it compiles the file, not us.
            warnings.simplefilter("ignore")
            compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as e:
        return e
    except (ValueError, RecursionError, MemoryError) as e:  # e.g. beyond the compiler's depth
        return SyntaxError(str(e) or type(e).__name__, (name, 1, None, None))
    return None


def assemble_valid(lines, edits, name):
    edits = list(edits)
    problems = []
    while True:
        if not any(blame for *_, blame in edits):
            edits = []  # no converted function: no runtime import either
        text = _apply(lines, edits)
        error = compile_error(text, name)
        if error is None:
            return text, edits, problems
        edit, line = _locate(edits, error.lineno or 1)  # `line`: in the input, if not in an edit
        if edit is None or edit[3] is None:
            # The user's own text (or the import line, which only Python's own rules
            # about the text around it can make wrong).
            problems.append(ConversionError(
                f"error: {error.msg}; Python refuses this file as written, and its "
                "conversion too", name, line))
            return text, edits, problems
        qualname, def_line = edit[3]
        problems.append(ConversionError(
            f"error: converted, {qualname}() is not valid Python ({error.msg}); it is left "
            "as written. This is a bug in autograph: please report it", name, def_line))
        edits.remove(edit)


def _apply(lines, edits):
    out = list(lines)
    # Bottom-up so earlier line numbers stay valid; at equal starts the function is
    # replaced before the import is inserted in front of it.
    for start, end, replacement, _ in sorted(edits, key=lambda e: e[:2], reverse=True):
        out[start:end] = [replacement]
    return "".join(out)


def _locate(edits, output_line):
    """(the edit whose replacement holds `output_line`, the line within it), or (None,
    the input's line number of `output_line`). (A replacement may hold more than the
    conversion, e.g. the function as written beside it: the line within is not shown.)"""
    shift = 0
    for edit in sorted(edits, key=lambda e: e[:2]):
        start, end, replacement, _ = edit
        length = len(split_lines(replacement))
        if output_line <= start + shift:
            break
        if output_line <= start + shift + length:
            return edit, output_line - start - shift
        shift += length - (end - start)
    return None, output_line - shift
