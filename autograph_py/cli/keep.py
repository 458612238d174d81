"""The converted function's source with the user's own text kept wherever conversion
kept the user's statement, for `autograph convert`.

Contract of `keep_users_text(old, new, lines, indent) -> str`: `old` is the function as
parsed from the file (`lines`, the file's lines without endings; `indent`, the
definition's indentation), `new` its conversion. The result is `new` printed with
`ast.unparse` (at indentation zero, lines joined by "\\n"), where
- every statement of `new` that is the same tree as the user's statement it comes from
  (same position, `same_tree`) is the user's text instead: formatting, comments
  inside it and a decorator's or signature's spelling kept (the function's own header
  too, when only its body changed);
- the comment lines in front of a user's statement go in front of the first statement
  it became, and the comments at the end of its lines after the statement it became (of
  the same kind, else the last of them, e.g. the `ag__.if_stmt(...)` call of an `if`);
- comments of statements that conversion dropped are dropped with them.
Equal trees print the same program, so keeping text never changes what runs. Text is
kept only where it can be cut out cleanly (the statement alone on its lines).
A printed function that Python's parser would refuse (e.g. 200 nested parentheses)
raises `SyntaxError`.
"""

import ast
import bisect
import copy
import io
import tokenize

import gast

from autograph_py.cli.positions import unparse_with_positions
from autograph_py.converters import traversal
from autograph_py.converters.gast_printer import printable

_BLOCKS = ("body", "orelse", "finalbody")
# Nesting that Python's parser surely accepts: half of its tokenizer's limits (200
# brackets, 100 blocks), as its own stack may give up sooner where they meet other
# nesting. Only a function printed deeper is parsed again to find out.
_SURELY_PARSED_BRACKETS = 100
_SURELY_PARSED_BLOCKS = 50


def keep_users_text(old, new, lines, indent):
    printed_tree = printable(new)
    printed, spans, (brackets, blocks) = unparse_with_positions(printed_tree)
    if brackets > _SURELY_PARSED_BRACKETS or blocks > _SURELY_PARSED_BLOCKS:
        ast.parse(printed)  # near Python's limits: its parser tells (SyntaxError)
    splicer = _Splicer(old, lines, indent, printed.split("\n"), spans)
    splicer.statement(new, printed_tree)
    return splicer.result()


def same_tree(a, b):
    """Whether two trees are equal ignoring positions (as their `gast.dump`s), stopping
    at the first difference."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, gast.AST):
            # Read through `__dict__` (node classes declare no field defaults): this
            # runs for every node of every converted function.
            x_fields, y_fields = x.__dict__, y.__dict__
            stack += [(x_fields.get(f), y_fields.get(f)) for f in x._fields]
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif x != y:
            return False
    return True


def _origin(node):
    return getattr(node, "lineno", None), getattr(node, "col_offset", None)


def _first_line(node):
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _blocks(node):
    """The statement lists of a compound statement, in printing order."""
    if "body" not in node.__dict__ and "cases" not in node.__dict__:
        return []  # a simple statement (most of them)
    blocks = [getattr(node, name) for name in _BLOCKS if isinstance(getattr(node, name, None),
                                                                   list)]
    blocks[1:1] = [handler.body for handler in getattr(node, "handlers", [])]
    blocks[1:1] = [case.body for case in getattr(node, "cases", [])]
    return [b for b in blocks if b and isinstance(b[0], (gast.stmt, ast.stmt))]


class _Splicer:
    """Splices the user's text into `printed`, the lines of the converted function
    printed; `spans` tells where each of its printed (`ast`) statements is
    (`cli.positions`)."""

    def __init__(self, old, lines, indent, printed, spans):
        self.lines, self.indent, self.printed, self.spans = lines, indent, printed, spans
        self.originals = {_origin(n): n for n in traversal.block_items(old)
                          if isinstance(n, gast.stmt)}
        self.leading, self.trailing = _comments(old, lines)
        self.placed = set()  # origins whose comments were placed
        self.replaced = {}  # printed line (1-based) of a span's start -> (end, new lines)
        self.before = {}  # printed line -> comment lines to insert before it
        self.after = {}  # printed line -> comments to append to it

    def result(self):
        out, number = [], 1
        while number <= len(self.printed):
            out += self.before.get(number, [])
            if number in self.replaced:
                end, text = self.replaced[number]
                out += text
                number = end + 1
                continue
            line = self.printed[number - 1]
            comments = self.after.get(number)
            out.append(f"{line}  {'  '.join(comments)}" if comments else line)
            number += 1
        return "\n".join(out)

    def statements(self, generated, printed):
        groups = {}
        for gen, out in zip(generated, printed):
            groups.setdefault(_origin(gen), []).append((gen, out))
        for origin, members in groups.items():
            original = self.originals.get(origin)
            # The first statements made from a user's statement get its comments (placed
            # before entering them: their bodies may hold more of the same origin).
            place = original is not None and origin not in self.placed
            if place:
                self.placed.add(origin)
                first, _, column = self.spans[id(members[0][1])]
                self.before.setdefault(first, []).extend(
                    " " * column + comment for comment in self.leading.get(origin, []))
            kept = [self.statement(gen, out) for gen, out in members]
            if not place or any(kept) or origin not in self.trailing:
                continue
            same_kind = [out for gen, out in members if type(gen) is type(original)]
            at = (same_kind or [members[-1][1]])[0]
            line = self.spans[id(at.body[0])][0] - 1 if _blocks(at) else self.spans[id(at)][1]
            self.after.setdefault(line, []).extend(self.trailing[origin])

    def statement(self, gen, out):
        """Print `gen` (printed as `out`) with the user's text where possible; True when
        the user's text of the whole statement was kept."""
        original = self.originals.get(_origin(gen))
        if original is not None and type(original) is type(gen):
            text = self._users_text(original, gen, out)
            if text is not None:
                first, last, _ = self.spans[id(out)]
                self.replaced[first] = (last, text)
                return True
            if isinstance(gen, gast.FunctionDef):
                self._keep_header(original, gen, out)
        for generated, printed in zip(_blocks(gen), _blocks(out)):
            self.statements(generated, printed)
        return False

    def _users_text(self, original, gen, out):
        if not same_tree(original, gen):
            return None
        first, last = _first_line(original), original.end_lineno
        return self._cut(first, last, original.col_offset, original.end_col_offset,
                         " " * self.spans[id(out)][2])

    def _keep_header(self, original, gen, out):
        """The user's decorators and signature, when conversion changed only the body."""
        if not same_tree(_without_body(original), _without_body(gen)):
            return
        last = _first_line(original.body[0]) - 1
        while last > original.lineno and self.lines[last - 1].lstrip()[:1] in ("", "#"):
            last -= 1  # comment lines in front of the body belong to its first statement
        if last < original.lineno:
            return  # the body starts on the `def` line
        end_col = len(self.lines[last - 1].encode())
        first, _, column = self.spans[id(out)]
        text = self._cut(_first_line(original), last, original.col_offset, end_col,
                         " " * column)
        if text is not None:
            self.replaced[first] = (self.spans[id(out.body[0])][0] - 1, text)

    def _cut(self, first, last, col, end_col, prefix):
        """Lines `first`..`last` re-indented from the user's indentation to `prefix`, or
        None when something else shares those lines."""
        head = self.lines[first - 1].encode()
        rest = self.lines[last - 1].encode()[end_col:].decode().strip()
        if head[:col].strip() or (rest and not rest.startswith("#")):
            return None
        own = head[:col].decode()
        verbatim = string_continuation_lines("\n".join(self.lines[first - 1:last]))
        text = []
        for number, line in enumerate(self.lines[first - 1:last], 1):
            if number not in verbatim and line.startswith(own):
                line = prefix + line[len(own):]
            elif number not in verbatim and line.startswith(self.indent):
                line = line[len(self.indent):]  # a continuation line left of the statement
            text.append(line)
        return text


def _without_body(node):
    header = copy.copy(node)
    header.body = []
    return header


def _comments(function, lines):
    """(leading, trailing): the comment lines in front of each statement and the comments
    at the end of its own lines, by the statement's origin."""
    statements = sorted((n for n in traversal.block_items(function) if isinstance(n, gast.stmt)),
                        key=lambda n: (_first_line(n), n.col_offset))
    owner_of_line = {}  # line -> the innermost statement whose own line it is
    for node in statements:
        children = [c for block in _blocks(node) for c in block]
        header_end = _first_line(children[0]) - 1 if children else node.end_lineno
        for line in range(_first_line(node), max(header_end, node.lineno) + 1):
            owner_of_line[line] = node
    starts = sorted((_first_line(n), _origin(n)) for n in statements)
    start_lines = [start for start, _ in starts]
    leading, trailing = {}, {}
    first = _first_line(function)
    for row, text, full_line in _comment_tokens(lines[first - 1:function.end_lineno], first):
        if full_line:
            following = bisect.bisect_right(start_lines, row)  # the next statement's start
            if following < len(starts):
                leading.setdefault(starts[following][1], []).append(text)
        elif row in owner_of_line:
            trailing.setdefault(_origin(owner_of_line[row]), []).append(text)
    return leading, trailing


def _comment_tokens(lines, first):
    """(line, text, alone on its line) of each comment in `lines` (numbered from
    `first`)."""
    if not any("#" in line for line in lines):
        return  # most functions: no need to tokenize
    try:
        for token in _tokens("\n".join(lines)):
            if token.type == tokenize.COMMENT:
                row, col = token.start
                full_line = not token.line[:col].strip()
                yield row + first - 1, token.string, full_line
    except (tokenize.TokenError, SyntaxError):
        return  # a cut that does not tokenize alone: comments are then not moved


def string_continuation_lines(source):
    """Numbers (from 1) of the lines of `source` inside a multi-line string: never
    re-indented, which would change the string."""
    if '"""' not in source and "'''" not in source and "\\\n" not in source:
        return set()  # only triple quotes or a backslash-newline continue a string
    found = set()
    try:
        for token in _tokens(source):
            if token.type == tokenize.STRING:
                found.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _tokens(source):
    return tokenize.generate_tokens(io.StringIO(source + "\n").readline)
