"""The docs speak to someone who has only the repository: every relative link and every
path they quote exists in it, and no page sends the reader to an issue number."""

import glob
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# A quoted path: `dir/name.ext`, globs allowed, placeholders (`<family>`) skipped.
_PATH = re.compile(r"`([\w./*<>-]+/[\w./*<>-]+\.(?:py|md|toml|json|txt|svg|png))`")
_ISSUE = re.compile(r"(?i)\bissues? \d+")


def _exists(page, path):
    return any(glob.glob(str(base / path)) for base in (ROOT, page.parent))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_and_quoted_paths_exist_in_the_repository(page):
    text = page.read_text()
    links = [m.group(1) for m in _LINK.finditer(text) if "://" not in m.group(1)]
    paths = [m.group(1) for m in _PATH.finditer(text) if "<" not in m.group(1)]
    assert [p for p in links + paths if not _exists(page, p)] == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_issue_numbers(page):
    assert _ISSUE.findall(page.read_text()) == []


def test_the_checks_find_what_they_look_for(tmp_path):
    page = tmp_path / "page.md"
    text = "see [x](missing.md), `runtime/nowhere.py` and issue 7"
    assert [m.group(1) for m in _LINK.finditer(text)] == ["missing.md"]
    assert [m.group(1) for m in _PATH.finditer(text)] == ["runtime/nowhere.py"]
    assert not _exists(page, "missing.md") and _exists(page, "runtime/tensor.py")
    assert _ISSUE.findall(text) == ["issue 7"]
