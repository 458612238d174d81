"""The ONNX listing docs/export.md shows ("What the model looks like"), kept current.

`listing()` is `model_text` of the article's `sum_even` (examples/seed.py) exported for
`int32[None]`, the function whose `autograph graph` picture docs/img/sum_even.svg is;
`documented()` is the text between the page's `LISTING_START`/`LISTING_END` markers
(inside a ```text fence). tests/onnx/test_model_text.py checks they are equal;
`python -m tests.onnx.export_docs` rewrites the page's listing after an exporter change.
"""

import pathlib
import sys

from autograph_py.runtime.onnx.text import model_text

import autograph_py as ag

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "export.md"
LISTING_START = "<!-- onnx listing of sum_even: python -m tests.onnx.export_docs -->\n```text\n"
LISTING_END = "```\n<!-- end of the onnx listing -->"


def listing():
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import seed  # noqa: PLC0415  (examples/ is not a package)
    finally:
        sys.path.remove(str(ROOT / "examples"))
    return model_text(ag.onnx.export(seed.sum_even, ag.TensorSpec([None], ag.int32)))


def _split(page):
    start = page.index(LISTING_START) + len(LISTING_START)
    return page[:start], page[start:page.index(LISTING_END, start)], \
        page[page.index(LISTING_END, start):]


def documented():
    return _split(PAGE.read_text())[1]


def write():
    before, _, after = _split(PAGE.read_text())
    PAGE.write_text(before + listing() + after)


if __name__ == "__main__":
    write()
