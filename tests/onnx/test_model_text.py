"""`model_text` (runtime/onnx/text.py): the listing docs/export.md shows is the current
one, and the text's form: signature, one node a line, subgraphs indented below their
node (then before else), lines wrapped at 92 characters, `?` dims, `[...]` for a value
without a shape, small constants with their values, large ones with their type only."""

import numpy as np
from autograph_py.runtime.onnx.text import model_text

import autograph_py as ag
from tests.onnx import export_docs


def test_the_docs_listing_is_current():
    assert export_docs.documented() == export_docs.listing(), \
        "docs/export.md's ONNX listing is stale: run python -m tests.onnx.export_docs"


def clip_rows(m, n):
    total = ag.constant(np.arange(12, dtype=np.float32))
    while n > 0:
        ag.set_loop_options(shape_invariants=[(m, ag.TensorShape(None))])
        if ag.reduce_sum(m) > 0.0:
            m = m * 0.5
        else:
            m = ag.expand_dims(m, 0)
        n -= 1
    return ag.reshape(m, [-1]), total


def test_the_form_of_the_text():
    model = ag.onnx.export(clip_rows, ag.TensorSpec([None, 3], ag.float32),
                           ag.TensorSpec([], ag.int32))
    lines = model_text(model).splitlines()
    assert lines[0] == ("clip_rows(m: float32[?, 3], n: int32[]) -> "
                        "(output_0: float32[?], output_1: float32[12])")
    assert any(line.endswith("= Constant(value=float32[12])") for line in lines)  # type only
    [loop] = [i for i, line in enumerate(lines) if " = Loop(" in line]
    assert lines[loop].startswith("  ") and lines[loop + 1].startswith("    body: ")
    assert lines[loop + 2].startswith("        While/body/")  # its signature, continued
    assert "While/body/m: float32[...]" in "\n".join(lines)  # the rank the loop changes
    [branch] = [i for i, line in enumerate(lines) if " = If(" in line]
    assert lines[branch].startswith("      ")
    assert lines[branch + 1].startswith("        then_branch: ")
    [other] = [line for line in lines if "else_branch: " in line]
    assert lines.index(other) > branch + 1
    assert any("= Constant(value=float32[] 0.5)" in line for line in lines)
    assert all(len(line) <= 92 for line in lines)  # the body's signature is wrapped
