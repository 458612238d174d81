"""Reading the command line's inputs: a path, or `-` for standard input, into text.

Contract: `read_input(arg)` returns `(name, text)` where `name` is what messages call the
input (`arg` itself, `<stdin>` for `-`) and `text` the decoded source. It only reads
bytes: the file is never imported, compiled or executed.
- A problem with the argument itself (missing, a directory, unreadable) raises
  `UsageError` (exit status 2, like argparse's own `FileType` errors).
- Content that is not UTF-8 raises `ConversionError` located at the first bad byte
  (exit status 1: the file was read, its content cannot be converted); so does input
  larger than `cli.limits.MAX_INPUT_BYTES`, found without reading the rest.
"""

import io
import os
import sys

from autograph_py.cli.limits import read_limited
from autograph_py.converters.errors import ConversionError

STDIN = "-"
STDIN_NAME = "<stdin>"


class UsageError(Exception):
    """A command-line argument that cannot be used as given; str is `name: message`."""


def read_input(arg):
    if arg == STDIN:
        return STDIN_NAME, _decode(read_limited(sys.stdin.buffer, STDIN_NAME), STDIN_NAME)
    if os.path.isdir(arg):
        raise UsageError(f"{arg}: is a directory; give the Python files in it")
    try:
        with open(arg, "rb") as f:
            data = read_limited(f, arg)
    except FileNotFoundError:
        raise UsageError(f"{arg}: no such file") from None
    except OSError as e:
        raise UsageError(f"{arg}: cannot read: {e.strerror or e}") from None
    return arg, _decode(data, arg)


def _decode(data, name):
    try:
        # utf-8-sig: a byte-order mark is legal at the start of a Python file.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise ConversionError(f"not valid UTF-8 (byte 0x{data[e.start]:02x}); "
                              "autograph reads source files as UTF-8", name, line, col) from None


def split_lines(text):
    """Lines with their endings, split exactly where Python's line numbers split them
    (`str.splitlines` would also split at form feeds and Unicode line separators)."""
    return io.StringIO(text, newline="").readlines()


def newline_of(text):
    """The file's own line ending, so inserted lines match the lines around them."""
    first = split_lines(text[:4096])[:1]
    if first and first[0].endswith("\r\n"):
        return "\r\n"
    return "\n"
