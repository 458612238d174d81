"""`autograph convert` never writes a function Python refuses to compile: each converted
function is compiled (never run) before it is written, and one that does not compile is
reported (`file:line: error: ...`, status 1) and left as written, so the module
still imports. Annotated locals in converted blocks (issue 24) are the case that once
slipped through with status 0."""

import pytest
from autograph_py.converters import annotations, pipeline

from autograph_py import cli
from tests.cli.conftest import import_path


def test_annotated_locals_convert_and_behave_the_same(run_cli, fixtures, tmp_path):
    output = tmp_path / "annotated_ag.py"
    result = run_cli("convert", fixtures / "annotated_locals.py", "-o", output)
    assert result.returncode == 0, result.stderr
    assert "tz = timezone.utc  # the zone" in output.read_text()
    original = import_path(fixtures / "annotated_locals.py")
    converted = import_path(output)
    for flag in (True, False):
        assert converted.pick(flag, [1, 2]) == original.pick(flag, [1, 2])


@pytest.fixture
def without_annotations_pass(monkeypatch):
    """A pipeline that writes annotated names into closures declaring them nonlocal."""
    monkeypatch.setattr(pipeline, "PIPELINE",
                        tuple(p for p in pipeline.PIPELINE if p is not annotations))


@pytest.mark.usefixtures("without_annotations_pass")
def test_a_function_converted_to_invalid_python_is_reported_and_left_as_written(
        fixtures, tmp_path, capsys):
    source = fixtures / "annotated_locals.py"
    output = tmp_path / "out.py"
    assert cli.main(["convert", str(source), "-o", str(output), "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{source}:6: error: converted, pick() is not valid Python "
                          "(annotated name 'tz' can't be nonlocal)"), err
    assert err.count("\n") == 1
    text = output.read_text()
    assert "tz: tzinfo | None = timezone.utc  # the zone" in text  # as written
    assert "ag__.if_stmt" in text  # plain() is still converted
    assert import_path(output).plain(1) == 2


@pytest.mark.usefixtures("without_annotations_pass")
def test_a_selected_function_converted_to_invalid_python_is_reported(fixtures, capsys):
    source = fixtures / "annotated_locals.py"
    assert cli.main(["convert", str(source), "-f", "pick"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"{source}:6: error: converted, pick() is not valid Python")
    assert "ag__" not in captured.out  # printed as written
    assert "tz: tzinfo | None = None" in captured.out
