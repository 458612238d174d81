"""The code in docs/guide.md, docs/limitations.md, docs/gradients.md and docs/jax.md runs
and shows what it says.

- Every ```python block runs, in order, in one namespace per document (the tutorial
  builds on earlier blocks). Each block is written to a file of its own first, so
  `to_graph` can read the source of the functions it defines, as for a user's file.
- A ```output block right after a python block is exactly what that block prints.
- A ```text block that starts with `def NAME(` is exactly `ag.to_code(NAME)` of the
  function NAME the document defined.
Blocks see `__file__` (their own file), so they can shorten paths in what they print.
"""

import contextlib
import io
import pathlib
import re

import pytest

import autograph_py as ag
from tests.trace_time import prints_while_tracing_in

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def blocks(text):
    """(kind, body) of each fenced block, in order."""
    return [(m.group(1), m.group(2)) for m in _FENCE.finditer(text)]


def run_document(name, tmp_path):
    namespace = {"__name__": f"docs_{name}"}
    printed = None  # stdout of the last python block
    for index, (kind, body) in enumerate(blocks((DOCS / f"{name}.md").read_text())):
        where = f"{name}.md block {index}"
        if kind == "python":
            path = tmp_path / f"{name}_block_{index}.py"
            path.write_text(body)
            namespace["__file__"] = str(path)  # as for a script: blocks may print paths
            out = io.StringIO()
            # Examples print while tracing on purpose, to show when tracing happens.
            with contextlib.redirect_stdout(out), prints_while_tracing_in(path):
                exec(compile(body, str(path), "exec"), namespace)
            printed = out.getvalue()
        elif kind == "output":
            assert printed == body, f"{where}: the block above prints\n{printed}"
        elif kind == "text" and body.startswith("def "):
            fn_name = body[len("def "):body.index("(")]
            assert ag.to_code(namespace[fn_name]) + "\n" == body, where


@pytest.mark.parametrize("name", ["guide", "limitations", "gradients", "jax"])
def test_document_blocks_run_as_shown(name, tmp_path):
    run_document(name, tmp_path)


def test_fences_are_found():
    assert blocks("x\n```python\na = 1\n```\n```output\n1\n```\n") == [
        ("python", "a = 1\n"), ("output", "1\n")]
