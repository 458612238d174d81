"""Writing DOT text as the picture `autograph graph -o` asks for.

Contract of `write_picture(dot_text, path) -> None`:
- The output format is the suffix of `path`: `.dot` (the text itself), `.svg` or `.png`
  (rendered by Graphviz); any other suffix raises `UsageError`.
- Rendering runs the system Graphviz `dot`, else the `graphviz-pure` command (the
  `[graphviz]` extra: a self-contained port of `dot`), found on PATH. With neither,
  the DOT text is written next to `path` with the suffix `.dot`, and `GraphvizMissing`
  says, in one line, what was written and how to install Graphviz.
- Files are written as `autograph convert -o` writes (`cli.output.write_output`: regular
  files atomically, devices and FIFOs through, symlinks to their target); a renderer that fails
  raises `RenderError` with the first line of its message, and nothing is written.
"""

import os
import shutil
import subprocess

from autograph_py.cli.output import write_output
from autograph_py.cli.source import UsageError

RENDERED = (".svg", ".png")
RENDERERS = ("dot", "graphviz-pure")
# Rendering a picture of a few thousand ops takes seconds; a hung renderer must not hang us.
TIMEOUT_SECONDS = 300


class Problem(Exception):
    """Exit status 1 of `autograph graph`: the input or the picture failed, not the usage."""


class RenderError(Problem):
    """The renderer failed on the DOT text."""


class GraphvizMissing(Problem):
    """No renderer exists; the DOT text was written instead."""


def renderer():
    """The path of the command that renders DOT, or None."""
    for name in RENDERERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def write_picture(dot_text, path):
    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".dot":
        write_output(path, dot_text)
        return
    if suffix not in RENDERED:
        raise UsageError(f"{path}: cannot write {suffix or 'a file without suffix'}; "
                         "name the output .svg, .png or .dot")
    command = renderer()
    if command is None:
        fallback = os.path.splitext(path)[0] + ".dot"
        write_output(fallback, dot_text)
        raise GraphvizMissing(
            f"{path}: Graphviz's dot was not found, so the graph was written to {fallback}; "
            "to render it, install Graphviz (apt install graphviz, brew install graphviz) or "
            "pip install graphviz-pure, and run this command again")
    _render(command, dot_text, suffix[1:], path)


def _render(command, dot_text, fmt, path):
    result = subprocess.run([command, f"-T{fmt}"], input=dot_text.encode("utf-8"),
                            capture_output=True, timeout=TIMEOUT_SECONDS)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RenderError(f"{path}: {os.path.basename(command)} failed: "
                          f"{message[0] if message else f'status {result.returncode}'}")
    write_output(path, result.stdout)
