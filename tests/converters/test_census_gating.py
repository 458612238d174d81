"""Passes the census lets skip (nothing for them to do), and control flow skipping a
function without a statement to stage, change nothing: every function of real files
converts to the same code, and fails with the same errors, as when every pass runs;
and conversion leaves no reference cycles behind (the cyclic garbage collector found the
whole converted tree in them, a third of a file's conversion time)."""
import dataclasses
import gc
import pathlib

import gast
import pytest
from autograph_py.converters import control_flow, parser, pipeline
from autograph_py.converters.census import Census
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.transformer import ConversionContext

from autograph_py.cli.convert import convert_text

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("converters/**/*.py"), ROOT / "tests/converters/corpus.py",
                  ROOT / "examples/seed.py", *ROOT.glob("tests/cli/fixtures/*.py"),
                  *ROOT.glob("tests/fuzz/*.py")])
_EVERY_KIND = frozenset(c for c in vars(gast).values()
                        if isinstance(c, type) and issubclass(c, gast.AST))
_EVERY_GATED_NAME = frozenset({'do_not_convert', 'set_loop_options', 'set_element_type',
                               'append', 'pop'})


def _everything(census):
    """A census that lets every pass run (the identifiers, which name generated
    symbols, unchanged)."""
    return dataclasses.replace(census, kinds=_EVERY_KIND, logical=True, loop_else=True,
                               attributes=census.attributes | _EVERY_GATED_NAME)


def _converted(module, path):
    converted, problems = pipeline.convert_module(module, ConversionContext(str(path)))
    return pipeline.to_source(converted), [str(p) for p in problems]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_skipped_passes_change_nothing(path, monkeypatch):
    try:
        module = parser.parse_module(path.read_text(), str(path))
    except ConversionError:
        return  # the fixture with a syntax error: nothing to convert
    gated = _converted(module, path)
    census_of = Census.of
    monkeypatch.setattr(pipeline.Census, "of", lambda tree: _everything(census_of(tree)))
    monkeypatch.setattr(control_flow, "may_change", lambda tree: True)
    assert gated == _converted(module, path)


def test_conversion_leaves_no_reference_cycles():
    text = (ROOT / "examples/seed.py").read_text() + (ROOT / "tests/converters/corpus.py"
                                                       ).read_text()
    convert_text(text, "corpus.py")  # caches (templates, compiled walkers) filled
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = convert_text(text, "corpus.py")
        unreachable = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert "ag__.if_stmt" in result.output
    # A few closures calling each other (`cli.skipped`): not the trees (tens of
    # thousands of objects).
    assert unreachable < 100
