"""Converting one file's text, statically, for the command line.

Contract of `convert_text(text, name, functions=None, jobs=1) -> Result`:
- `text` is parsed, never imported, compiled to bytecode or run. A syntax error, a
  file that already uses a reserved name (`ag__`, `__ag__`), or one nested deeper than
  `cli.limits.MAX_DEPTH` raises `ConversionError`.
- Whole file (`functions` is None): `Result.output` is the file with every convertible
  function (wherever it is defined, `module_functions`: classes and compound statements
  at any depth; nested functions through their parents) replaced by its converted
  version, and
  `from autograph_py import operators as __ag__` inserted after the module docstring and
  the `from __future__` imports; the converted functions read the operators through
  that private name (`from module import *` does not export it), where `to_code` prints
  `ag__`. Everything else (statements, comments, blank lines,
  line endings) stays as written, so a diff shows only what conversion changed: a
  function the conversion leaves unchanged (nothing in it to convert) stays exactly as
  written, a file without any converted function gets no import, and inside a
  converted function the user's text and comments are kept where conversion kept the
  user's statements (`cli.keep`).
  Functions decorated `do_not_convert` and functions that cannot be converted stay as
  written; each of the latter is a `ConversionError` in `Result.problems`. Generators
  and `async def`s stay as written with a line in `Result.notes` (`cli.skipped`).
  The output compiles (`cli.valid`): a function whose conversion would not is left as
  written with a `file:line: error: ...` problem, as is the user's own text that Python
  refuses.
  With `jobs` > 1 a large file's functions are converted in up to that many processes
  (`cli.parallel`, forked: only for the command line); the result is the same.
- With `functions` (names `f` or `Class.method`): `Result.output` is those functions
  converted and printed as `to_code` prints them (no decorators, no import),
  `Result.original` their source as written; `Result.names` every
  function name the file has (`f`, `Class.method`).
"""

import copy
import dataclasses
import gc
import re
import textwrap

import gast

from autograph_py.cli.keep import keep_users_text, same_tree, string_continuation_lines
from autograph_py.cli.limits import TOO_DEEP, check_depth, deep_recursion
from autograph_py.cli.parallel import map_forked
from autograph_py.cli.skipped import left_as_written
from autograph_py.cli.source import newline_of, split_lines
from autograph_py.cli.valid import assemble_valid, compile_error
from autograph_py.converters import naming, parser, pipeline
from autograph_py.converters.dispatching_pair import (
    builtin_type_name,
    handover_index,
    handover_line,
    twin_decorators,
)
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.functions import is_do_not_convert
from autograph_py.converters.module_functions import module_functions
from autograph_py.converters.transformer import ConversionContext

RUNTIME_IMPORT = f"from autograph_py import operators as {naming.MODULE_OPERATORS}"


@dataclasses.dataclass
class Result:
    name: str
    original: str
    output: str
    problems: list
    names: frozenset = frozenset()
    notes: list = dataclasses.field(default_factory=list)  # `file:line: note: ...` lines


def convert_text(text, name, functions=None, jobs=1):
    # Conversion builds many small trees that live until the output is written: the
    # cyclic garbage collector finds nothing to free there and costs ~15% of the time.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        with deep_recursion():
            return _convert_text(text, name, functions, jobs)
    finally:
        if gc_was_enabled:
            gc.enable()


def _convert_text(text, name, functions, jobs):
    try:
        module = parser.parse_module(text, name)
    except (RecursionError, MemoryError):
        # Python's own parser gives up on deep nesting (MemoryError is its "stack
        # overflow"), before any tree exists to check.
        raise ConversionError(TOO_DEEP, name, 1) from None
    _reject_reserved_name(check_depth(module, name), name)
    ctx = ConversionContext(filename=name, recursive=True)
    if functions is None:
        return _convert_file(text, module, name, ctx, jobs)
    return _convert_selected(text, module, name, ctx, functions)


def _reject_reserved_name(nodes, name):
    # Converted code reaches the runtime through `__ag__` (`ag__` in functions converted
    # alone, `to_code`'s); a
    # file that binds or reads either itself would silently call the wrong thing
    # (typically: it was converted already).
    uses = sorted((getattr(node, "lineno", 1), used) for node in nodes
                  for used in [node.id if isinstance(node, gast.Name) else
                               (node.asname or node.name) if isinstance(node, gast.alias)
                               else None]
                  if used in naming.RESERVED)
    if uses:
        line, used = uses[0]
        raise ConversionError(f"the name {used} is reserved for autograph's operators (was "
                              "this file converted already?)", name, line)


def function_definitions(module):
    """(qualified name, definition) of every function the command converts or notes
    (`module_functions`: top level, classes and compound statements at any depth), in an
    order that depends only on the tree's shape."""
    for qualname, statements, index in module_functions(module):
        yield qualname, statements[index]


def context_of(ctx, qualname):
    """`ctx` for the function `qualname` names: a method (`Class.method`) has the
    `__class__` cell that zero-argument `super()` reads (converters/super_calls.py)."""
    return dataclasses.replace(ctx, class_cell="." in qualname)


def convert_definition(node, ctx):
    """One function converted as `to_code` converts it: without its decorators (they
    would apply twice when the converted function replaces the original)."""
    undecorated = copy.copy(node)
    undecorated.decorator_list = []
    return pipeline.convert_function(undecorated, ctx)


def first_line(node):
    """The first line of a definition: its first decorator's."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _convert_file(text, module, name, ctx, jobs):
    lines = split_lines(text)
    file = _File(name, ctx, [line.rstrip("\r\n") for line in lines], newline_of(text),
                 builtin_type_name(module))
    definitions = list(function_definitions(module))
    outcomes = map_forked(file.outcome, definitions, jobs,
                          [node.end_lineno - first_line(node) + 1 for _, node in definitions])
    edits = [(*edit, (qualname, old.lineno)) for (qualname, old), (edit, _, _)
             in zip(definitions, outcomes) if edit is not None]
    if edits:  # a file with nothing converted needs no runtime import
        edits.append((*_import_edit(module, lines, file.newline), None))
    output, _, invalid = assemble_valid(lines, edits, name)
    problems = [problem for _, problem, _ in outcomes if problem is not None]
    reported = sorted([*problems, *invalid], key=lambda e: e.lineno)
    notes = [note for _, _, note in outcomes if note is not None]
    return Result(name, text, output, reported, notes=notes)


@dataclasses.dataclass
class _File:
    """What converting one function of a file needs: its conversion is independent of
    the others' (`cli.parallel` may run it in another process)."""
    name: str
    ctx: ConversionContext
    text_lines: list  # the file's lines without their endings
    newline: str
    type_name: str  # how the hand-over line names the builtin (`builtin_type_name`)

    def outcome(self, definition):
        """(edit or None, ConversionError or None, note or None) for one function: the
        edit `(first index, end index, text)` replaces its lines by its conversion."""
        qualname, old = definition
        problem = None
        if not is_do_not_convert(old) and isinstance(old, gast.FunctionDef):
            try:
                new = pipeline.convert_file_function(old, context_of(self.ctx, qualname))
                # A function conversion did not change is left exactly as written
                # (comments and formatting included), so --diff shows only real changes.
                if same_tree(old, new):
                    return None, None, None
                return self._edit(old, new), None, None
            except ConversionError as e:
                problem = ConversionError(f"{e.message}; {qualname}() is left as written",
                                          e.filename, e.lineno, e.col_offset)
        # A function that converted yields nowhere in its own body (`unsupported` would
        # have refused it): only the others need the walk that looks.
        note = left_as_written(old, qualname, self.name)
        return None, None if note else problem, note

    def _edit(self, old, new):
        """The edit for `old`'s conversion `new` (`dispatching_pair`); raises
        ConversionError when the printed conversion is beyond Python's parser."""
        indent = re.match(r"[ \t]*", self.text_lines[old.lineno - 1]).group()
        try:
            source = keep_users_text(_undecorated(old), _undecorated(new), self.text_lines,
                                     indent)
        except SyntaxError as e:
            # The printed conversion is beyond Python's own limits (each `not` or `and`
            # becomes a call: 200 nested parentheses); Python could not import it.
            raise ConversionError(
                f"converted, this function exceeds what Python's parser accepts ({e.msg}); "
                "split the expression, e.g. with intermediate variables",
                self.name, old.lineno) from None
        return (first_line(old) - 1, old.end_lineno,
                dispatching_pair(old, _indented(source, indent, self.newline), self.text_lines,
                                 indent, self.newline, self.type_name))


def _undecorated(node):
    undecorated = copy.copy(node)
    undecorated.decorator_list = []
    return undecorated


def dispatching_pair(old, converted_text, text_lines, indent, newline, type_name):
    """The text replacing the definition `old`: the statements of
    `converters.dispatching_pair`, with the user's text for the function as written (its
    lines and decorators, the hand-over line added) and `converted_text`, the conversion
    rendered without its decorators."""
    on_twin, on_original = twin_decorators(old, naming.MODULE_OPERATORS)
    decorators = [line + newline for line in text_lines[first_line(old) - 1:old.lineno - 1]]
    gap = newline * (1 if indent else 2)
    return "".join([*([f"{indent}@{on_twin}{newline}"] if on_twin else []), converted_text,
                    gap, *decorators, f"{indent}@{on_original}{newline}",
                    *_with_handover(old, text_lines, indent, newline, type_name)])


def _with_handover(old, text_lines, indent, newline, type_name):
    """The lines of `old` from its `def`, the hand-over line added before the first
    statement after the docstring: on a line of its own at the body's indentation, or,
    when that statement shares its line (`def f(x): return x`, `"doc"; return x`), with
    the line split before it."""
    lines = text_lines[old.lineno - 1:old.end_lineno]
    target = old.body[handover_index(old)]
    # A decorated statement (a nested function or class) starts at its first decorator,
    # which starts its line.
    at = first_line(target) - old.lineno
    line = lines[at]
    handover = handover_line(old, naming.MODULE_OPERATORS, type_name)
    decorated = first_line(target) != target.lineno
    # col_offset counts UTF-8 bytes.
    start = (len(re.match(r"[ \t]*", line).group()) if decorated else
             len(line.encode("utf-8")[:target.col_offset].decode("utf-8", "replace")))
    head = line[:start]
    if head.strip():
        body_indent = (indent + ("\t" if "\t" in indent else "    ") if at == 0
                       else re.match(r"[ \t]*", line).group())
        lines[at:at + 1] = [head.rstrip(), body_indent + handover, body_indent + line[start:]]
    else:
        lines[at:at] = [head + handover]
    return [line + newline for line in lines]


def _import_edit(module, lines, newline):
    """Insert the runtime import after the docstring and `from __future__` imports (which
    must stay first), else right before the first statement (so a shebang, an encoding
    line and leading comments stay on top)."""
    header = []
    for i, stmt in enumerate(module.body):
        is_docstring = (i == 0 and isinstance(stmt, gast.Expr)
                        and isinstance(stmt.value, gast.Constant)
                        and isinstance(stmt.value.value, str))
        if not (is_docstring or isinstance(stmt, gast.ImportFrom)
                and stmt.module == "__future__"):
            break
        header.append(stmt)
    if header:
        at = header[-1].end_lineno
    elif module.body:
        at = first_line(module.body[0]) - 1
    else:
        at = len(lines)
    # After a last line without ending, the import starts with one (and not on that line).
    ending = newline if at and not lines[at - 1].endswith(("\n", "\r")) else ""
    return at, at, ending + RUNTIME_IMPORT + newline


def _indented(source, indent, newline):
    """The converted function's source (`cli.keep.keep_users_text`), indented like the
    definition it replaces (tabs kept). Continuation lines of multi-line strings
    (docstrings) are not indented: that would change the strings' values."""
    verbatim = string_continuation_lines(source) if indent else set()
    out = []
    for number, line in enumerate(source.split("\n"), 1):
        if line and number not in verbatim:
            line = indent + line
        out.append(line + newline)
    return "".join(out)


def _convert_selected(text, module, name, ctx, functions):
    definitions = dict(function_definitions(module))  # a redefinition wins, as in Python
    lines = split_lines(text)
    originals, outputs, problems, notes = [], [], [], []
    for qualname in dict.fromkeys(functions):
        node = definitions.get(qualname)
        if node is None:
            continue
        original = textwrap.dedent("".join(lines[first_line(node) - 1:node.end_lineno]))
        originals.append(original)
        note = left_as_written(node, qualname, name)
        if note:
            notes.append(note)
        if is_do_not_convert(node) or note:
            outputs.append(original)
            continue
        try:
            converted = convert_definition(node, context_of(ctx, qualname))
        except ConversionError as e:
            problems.append(e)
            continue
        output = pipeline.to_source(converted) + "\n"
        error = compile_error(output, name)
        if error is not None:
            problems.append(ConversionError(
                f"error: converted, {qualname}() is not valid Python ({error.msg}); this is "
                "a bug in autograph: please report it", name, node.lineno))
            output = original
        outputs.append(output)
    return Result(name, "\n".join(originals), "\n".join(outputs), problems,
                  frozenset(definitions), notes)
