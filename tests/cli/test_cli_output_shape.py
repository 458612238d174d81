"""What `autograph convert FILE` prints: the whole file, every function converted, the
runtime import in the right place, everything else exactly as written; `-f` prints
functions as `to_code` does; `-` reads standard input."""

import ast

import pytest
from autograph_py.converters import parser, pipeline
from autograph_py.converters.transformer import ConversionContext

import autograph_py as ag

IMPORT = "from autograph_py import operators as __ag__"


def converted_text(run_cli, path, *options):
    result = run_cli("convert", path, *options)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


@pytest.mark.parametrize("fixture", ["seed_functions.py", "classes_nested.py", "tabs.py"])
def test_output_is_the_pipeline_conversion_plus_the_import(run_cli, fixtures, fixture):
    path = fixtures / fixture
    printed = ast.parse(converted_text(run_cli, path))
    imports = [s for s in printed.body if ast.unparse(s) == IMPORT]
    assert len(imports) == 1
    printed.body.remove(imports[0])
    module = parser.parse_module(path.read_text(), str(path))
    expected, problems = pipeline.convert_module(module, ConversionContext(str(path)))
    assert problems == []
    assert ast.dump(printed) == ast.dump(ast.parse(pipeline.to_source(expected)))


def test_import_comes_after_docstring_and_future_imports(run_cli, fixtures):
    lines = converted_text(run_cli, fixtures / "seed_functions.py").splitlines()
    assert lines[0].startswith('"""The seed article')
    assert lines[1:3] == ["from __future__ import annotations", IMPORT]


def test_shebang_comments_and_untouched_code_stay_as_written(run_cli, fixtures):
    source = (fixtures / "classes_nested.py").read_text()
    out = converted_text(run_cli, fixtures / "classes_nested.py")
    assert out.splitlines()[:2] == source.splitlines()[:2]  # shebang, encoding line
    for kept in ["LIMIT = 100  # a module constant the converted code reads\n",
                 source[source.index("\n@ag.do_not_convert\n"):source.index("def exclusive_or")],
                 '        """Add the positive values, scaled.\n\n        Indented docstring '
                 'lines must survive conversion unchanged.\n        """\n']:
        assert kept in out
    assert "__ag__.while_stmt" in out and "__ag__.for_stmt" in out and "__ag__.if_exp" in out


def test_tab_indented_classes_stay_tab_indented(run_cli, fixtures, tmp_path, import_file):
    out = converted_text(run_cli, fixtures / "tabs.py")
    method_lines = out.splitlines()[out.splitlines().index("class Tabbed:") + 1:]
    assert all(line.startswith("\t") for line in method_lines if line)
    (tmp_path / "tabs_converted.py").write_text(out)
    tabbed = import_file(tmp_path / "tabs_converted.py").Tabbed()
    assert [tabbed.sign(x) for x in (3, -2, 0)] == [1, -1, 0]


def test_docstring_of_a_function_with_early_return_is_kept(run_cli, fixtures, tmp_path,
                                                           import_file):
    (tmp_path / "tabs_converted.py").write_text(converted_text(run_cli, fixtures / "tabs.py"))
    converted = import_file(tmp_path / "tabs_converted.py")
    assert converted.Tabbed.sign.__doc__ == import_file(fixtures / "tabs.py").Tabbed.sign.__doc__


def test_windows_line_endings_are_kept(run_cli, fixtures, tmp_path):
    source = (fixtures / "seed_functions.py").read_text()
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(source.replace("\n", "\r\n").encode())
    result = run_cli("convert", crlf, binary=True)  # text mode would hide the \r
    assert result.returncode == 0
    assert result.stdout.count(b"\n") == result.stdout.count(b"\r\n") > 20


@pytest.mark.parametrize("source", ["", "# only a comment", "def f(x):\n    return x",
                                    '"""Doc."""', "x = 1\r\ndef f(x):  # same\r\n    return x"])
def test_small_files_with_nothing_to_convert_come_out_byte_identical(run_cli, tmp_path,
                                                                     source):
    path = tmp_path / "small.py"
    path.write_bytes(source.encode())
    result = run_cli("convert", path, binary=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, source.encode(), b"")


@pytest.mark.parametrize("header, at", [("", 0), ("# a comment", 1), ('"""Doc."""', 1),
                                        ("#!/usr/bin/env python\n# a comment\nimport g", 2)])
def test_import_placement_in_small_files(run_cli, tmp_path, header, at):
    function = "def f(x):\n    return g(x)"  # no final newline
    path = tmp_path / "small.py"
    path.write_text(f"{header}\n{function}" if header else function)
    lines = converted_text(run_cli, path).split("\n")
    assert lines[at] == IMPORT
    assert lines[:at] == header.split("\n")[:at]
    del lines[at]
    module = parser.parse_module(path.read_text(), str(path))
    expected, _ = pipeline.convert_module(module, ConversionContext(str(path)))
    assert ast.dump(ast.parse("\n".join(lines))) == ast.dump(
        ast.parse(pipeline.to_source(expected)))


def test_function_option_prints_functions_as_to_code_does(run_cli, fixtures, seed_modules):
    original, _ = seed_modules
    out = converted_text(run_cli, fixtures / "seed_functions.py",
                         "-f", "sum_even", "--function", "square_if_positive")
    assert out == (ag.to_code(original.sum_even) + "\n\n"
                   + ag.to_code(original.square_if_positive) + "\n")


def test_function_option_takes_methods_and_keeps_do_not_convert(run_cli, fixtures):
    out = converted_text(run_cli, fixtures / "classes_nested.py",
                         "-f", "Accumulator.add_positive", "-f", "left_alone")
    assert out.startswith("def add_positive(self, values):\n")
    assert "ag__.for_stmt" in out and "__ag__" not in out  # as to_code prints it
    assert "@ag.do_not_convert\ndef left_alone(x):\n    # This comment stays" in out


def test_unknown_function_is_a_usage_error_with_suggestions(run_cli, fixtures):
    result = run_cli("convert", fixtures / "seed_functions.py", "-f", "sum_evn")
    assert result.returncode == 2
    assert result.stderr == (f"{fixtures / 'seed_functions.py'}: no function named "
                             "'sum_evn'; did you mean sum_even?\n")


def test_standard_input(run_cli, fixtures):
    path = fixtures / "seed_functions.py"
    result = run_cli("convert", "-", stdin=path.read_text())
    assert result.returncode == 0
    assert result.stdout == converted_text(run_cli, path)


def test_standard_input_problems_are_located_in_stdin(run_cli):
    result = run_cli("convert", "-", stdin="x = (\n")
    assert result.returncode == 1
    assert result.stderr.startswith("<stdin>:1:5: ")


def test_several_files_are_printed_one_after_the_other(run_cli, fixtures):
    seed, tabs = fixtures / "seed_functions.py", fixtures / "tabs.py"
    result = run_cli("convert", seed, tabs)
    assert result.returncode == 0
    assert result.stdout == (f"# ==> {seed} <==\n" + converted_text(run_cli, seed)
                             + f"# ==> {tabs} <==\n" + converted_text(run_cli, tabs))
