"""What `autograph convert` writes compiles: a conversion that Python would refuse (a bug
in autograph, simulated here by a conversion that adds a `nonlocal` of nothing) is
`file:line: error: ...` with status 1, and that function is left as written while the
rest converts; a file Python refuses as written is reported at its line."""

import warnings

import gast
import pytest
from autograph_py.converters import parser, pipeline

from autograph_py import cli

SOURCE = """\
def fine(x):
    if x > 0:
        x = -x
    return x


class Holder:
    def broken(self, items):
        total = 0
        for item in items:
            total = total + item * 2
        return total
"""


@pytest.fixture
def faulty_conversion(monkeypatch):
    """Conversions of functions named `broken` come out valid to the parser, invalid to
    the compiler (its symbol table), as the annotated-`nonlocal` bug of issue 24 did."""
    def add_fault(convert):
        def converted(node, ctx):
            result = convert(node, ctx)
            if node.name == "broken":
                result.body.insert(0, gast.Nonlocal(names=["no_such_binding"]))
            return result
        return converted

    for name in ("convert_file_function", "convert_function"):
        monkeypatch.setattr(pipeline, name, add_fault(getattr(pipeline, name)))


def convert(tmp_path, capsys, source, *options):
    path = tmp_path / "module.py"
    path.write_text(source)
    status = cli.main(["convert", str(path), "-j", "1", *options])
    out, err = capsys.readouterr()
    return path, status, out, err


def test_an_invalid_conversion_is_an_error_and_left_as_written(tmp_path, capsys,
                                                               faulty_conversion):
    path, status, out, err = convert(tmp_path, capsys, SOURCE)
    assert status == 1
    assert err == (f"{path}:8: error: converted, Holder.broken() is not valid Python (no "
                   "binding for nonlocal 'no_such_binding' found); it is left as written. "
                   "This is a bug in autograph: please report it\n")
    assert SOURCE[SOURCE.index("class Holder"):] in out  # as written
    assert "ag__.if_stmt(" in out  # fine() still converted
    compile(out, "converted", "exec")
    namespace = {}
    exec(compile(out, "converted", "exec"), namespace)
    assert namespace["fine"](3) == -3 and namespace["Holder"]().broken([1, 2]) == 6


def test_check_reports_it_too(tmp_path, capsys, faulty_conversion):
    _, status, out, err = convert(tmp_path, capsys, SOURCE, "--check")
    assert (status, out) == (1, "")
    assert "error: converted, Holder.broken() is not valid Python" in err


def test_the_runtime_import_goes_when_no_conversion_is_left(tmp_path, capsys,
                                                            faulty_conversion):
    source = SOURCE[SOURCE.index("class Holder"):]
    _, status, out, _ = convert(tmp_path, capsys, source)
    assert (status, out) == (1, source)  # byte-identical: nothing converted, no import


def test_selected_function_with_an_invalid_conversion(tmp_path, capsys, faulty_conversion):
    path, status, out, err = convert(tmp_path, capsys, SOURCE, "-f", "Holder.broken")
    assert status == 1
    assert err.startswith(f"{path}:8: error: converted, Holder.broken() is not valid Python")
    assert out == SOURCE[SOURCE.index("def broken"):].replace("\n    ", "\n")


@pytest.mark.parametrize("line, statement, message", [
    (5, "return 1", "'return' outside function"),
    (5, "nonlocal y", "nonlocal declaration not allowed at module level"),
])
def test_a_file_python_refuses_as_written_is_reported_at_its_line(tmp_path, capsys, line,
                                                                  statement, message):
    source = SOURCE[:SOURCE.index("class Holder")].rstrip() + f"\n{statement}\n"
    path, status, out, err = convert(tmp_path, capsys, source)
    assert status == 1
    assert err == (f"{path}:{line}: error: {message}; Python refuses this file as written, "
                   "and its conversion too\n")
    assert "ag__.if_stmt(" in out


def test_compiling_adds_no_warning_about_the_users_text(tmp_path, capsys):
    source = 'PATTERN = "\\d+"\n' + SOURCE  # an invalid escape sequence: Python warns
    with warnings.catch_warnings(record=True) as parsing:
        warnings.simplefilter("always")
        parser.parse_module(source, "module.py")
    with warnings.catch_warnings(record=True) as converting:
        warnings.simplefilter("always")
        _, status, _, err = convert(tmp_path, capsys, source)
    assert (status, err) == (0, "")
    assert len(converting) == len(parsing)  # the parser's own, if any: not one more
