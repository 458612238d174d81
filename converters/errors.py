"""The one error class of the converters: a problem located in the user's source.

`str(ConversionError(msg, file, line))` is `file:line: msg` (`file:line:col: msg` when a
column is known), so editors and terminals can jump to the user's code. The column
(`col_offset`, kept under that name for callers) is 1-based like a SyntaxError's
`offset`, not 0-based like an AST node's `col_offset`.
"""


class ConversionError(Exception):
    """A construct that cannot be converted, or source that cannot be read."""

    def __init__(self, message, filename, lineno, col_offset=None):
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col_offset = col_offset

    def __str__(self):
        where = f'{self.filename}:{self.lineno}'
        if self.col_offset is not None:
            where += f':{self.col_offset}'
        return f'{where}: {self.message}'

    def __reduce__(self):
        return (type(self), (self.message, self.filename, self.lineno, self.col_offset))
