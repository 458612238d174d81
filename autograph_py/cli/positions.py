"""`ast.unparse`, telling where each statement was printed, for `cli.keep`.

Contract of `unparse_with_positions(tree) -> (text, spans, depth)`: `tree` is what
`gast_printer.printable` makes of a gast tree (the tree itself, or its `ast` translation
where gast cannot be printed directly); `text` is exactly `ast.unparse` of it (which
needs `fix_missing_locations` first; this does not, unless `tree` is a module with
`# type: ignore` comments); `spans` maps `id(stmt)` of every
statement of `tree` to `(first line, last line, column)` in `text` (lines from 1): what
`ast.parse(text)` would say of the statement printed from it (its first decorator's
line for a definition, the `elif` line for an `if` printed as `elif`, whose last line
is the whole chain's); `depth` is `(brackets, indentation)`, the deepest nesting of
brackets and of blocks in `text`, the two things Python's tokenizer limits (200 and
100).
Parsing the printed function again to learn these was a tenth of `autograph convert`.

It extends the standard library's printer (`ast._Unparser`, private but the code of
`ast.unparse` since Python 3.9; `gast_printer.Printer`, the same reading gast): every
line it starts goes through `fill` (after a separate "\\n" piece) at the current
indentation, and the only statements it prints without `traverse` are docstrings and
`elif` branches, both handled here.
"""

import ast

from autograph_py.converters.gast_printer import If, Printer


class _PositionUnparser(Printer):
    def __init__(self, **options):  # f-strings print their parts with a new printer
        super().__init__(**options)
        # (id(stmt), index in `_source` of its first piece, of the piece after its last,
        # column); lines are counted once, when printing is done (`spans`).
        self._marks = []
        self._elif_chains = []  # per `if` being printed: its branches printed as `elif`
        self._elif_starts = {}  # id(branch) -> (index of its `elif` piece, column)
        self._docstring = None  # the docstring statement about to be printed
        self._brackets = 0
        self.depth = (0, 0)  # the deepest (brackets, indentation level) printed

    def spans(self):
        """{id(stmt): (first line, last line, column)} of the statements printed."""
        lines, total = [0], 0  # lines[i]: the newlines in the first i pieces
        for piece in self._source:
            total += piece.count("\n")
            lines.append(total)
        return {key: (1 + lines[first], 1 + lines[end], column)
                for key, first, end, column in self._marks}

    def _printed(self, node, write):
        """Run `write()`, which prints statement `node` first, and mark its pieces."""
        first, column = len(self._source), self._indent * 4
        write()
        self._mark(node, first, column)

    def _mark(self, node, first, column):
        """Mark the pieces of statement `node`, printed from piece `first` on."""
        source = self._source
        while not source[first].strip("\n"):  # blank lines a definition starts with
            first += 1
        self._marks.append((id(node), first, len(source), column))

    def _statement(self, visit, node):
        """Print statement `node` with the printer's `visit` method for it."""
        if not isinstance(node, If):
            # Most statements: no `elif` chain to follow (only an `if` prints one).
            first, column = len(self._source), self._indent * 4
            visit(self, node)
            self._mark(node, first, column)
            return
        chain = []
        inner = node
        while len(inner.orelse) == 1 and isinstance(inner.orelse[0], If):
            inner = inner.orelse[0]
            chain.append(inner)
        self._elif_chains.append(iter(chain))
        self._printed(node, lambda: visit(self, node))
        self._elif_chains.pop()
        end = len(self._source)
        for branch in chain:  # ast.parse ends each `elif` where the whole `if` ends
            first, column = self._elif_starts.pop(id(branch))
            self._marks.append((id(branch), first, end, column))

    def delimit(self, start, end):  # every bracket the printer writes but `{*()}`'s
        return _Brackets(self, start, end)

    def fill(self, text=""):
        super().fill(text)
        if self._indent > self.depth[1]:
            self.depth = (self.depth[0], self._indent)
        if text == "elif ":
            self._elif_starts[id(next(self._elif_chains[-1]))] = (
                len(self._source) - 1, self._indent * 4)

    def get_type_comment(self, node):
        # The standard printer reads `node.lineno` to find a module's `# type: ignore`
        # lines: without any (a function printed alone), the tree needs no locations at
        # all. The gast printer never reads one.
        if self._type_ignores or Printer is not ast._Unparser:
            return super().get_type_comment(node)
        return None if node.type_comment is None else f" # type: {node.type_comment}"

    def _write_docstring_and_traverse_body(self, node):
        self._docstring = node.body[0] if node.body else None
        super()._write_docstring_and_traverse_body(node)

    def _write_docstring(self, node):
        statement, self._docstring = self._docstring, None
        self._printed(statement, lambda: super(_PositionUnparser, self)._write_docstring(node))


class _Brackets:
    """What the base printer's `delimit` context does (write `start`, then `end` after
    the block), counting the depth of brackets: a class, cheaper to enter and leave
    than a generator-based context (the printer opens one for every bracket)."""

    __slots__ = ("printer", "start", "end")

    def __init__(self, printer, start, end):
        self.printer, self.start, self.end = printer, start, end

    def __enter__(self):
        printer = self.printer
        printer._brackets += 1
        printer.depth = (max(printer.depth[0], printer._brackets), printer.depth[1])
        printer.write(self.start)

    def __exit__(self, *exception):
        if exception[0] is None:  # as the generator: nothing more after an exception
            self.printer.write(self.end)
            self.printer._brackets -= 1


def _recording(visit):
    return lambda self, node: self._statement(visit, node)


# Only statements are intercepted (their visit methods): expressions, nine nodes in ten,
# print at the standard library's speed.
for _name in dir(Printer):
    if (_name.startswith("visit_") and isinstance(getattr(ast, _name[6:], None), type) and
            issubclass(getattr(ast, _name[6:]), ast.stmt)):
        setattr(_PositionUnparser, _name, _recording(getattr(Printer, _name)))


def unparse_with_positions(tree):
    printer = _PositionUnparser()
    return printer.visit(tree), printer.spans(), printer.depth
