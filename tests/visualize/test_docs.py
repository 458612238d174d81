"""docs/visualize.md runs as shown (the harness of tests/api/test_to_graph_docs.py), in a
temporary directory, since its blocks write TensorBoard logs; its pictures exist."""

import pathlib
import re

from tests.api.test_to_graph_docs import DOCS, run_document


def test_visualize_blocks_run_as_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_document("visualize", tmp_path)
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == [
        "sum_even", "sum_even_session"]


def test_pictures_exist():
    text = (DOCS / "visualize.md").read_text()
    pictures = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", text)
    assert len(pictures) == 4
    for picture in pictures:
        content = pathlib.Path(DOCS / picture).read_bytes()
        if picture.endswith(".svg"):
            assert content.lstrip().startswith(b"<?xml") and b"<svg" in content
        else:
            assert content.startswith(b"\x89PNG\r\n\x1a\n")
