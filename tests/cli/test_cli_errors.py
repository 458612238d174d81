"""Every error the command reports: `file:line[:col]: message` on standard error, exit
status 1 for conversion problems and 2 for usage errors, never a Python traceback
unless --debug."""

import os

import pytest


def assert_fails(result, status, message):
    assert result.returncode == status
    assert result.stderr == message + "\n"
    assert "Traceback" not in result.stderr


def test_missing_file(run_cli, tmp_path):
    missing = tmp_path / "missing.py"
    result = run_cli("convert", missing)
    assert_fails(result, 2, f"{missing}: no such file")
    assert result.stdout == ""


def test_directory_as_input(run_cli, fixtures):
    assert_fails(run_cli("convert", fixtures), 2,
                 f"{fixtures}: is a directory; give the Python files in it")


def test_unreadable_path(run_cli, fixtures):
    below_a_file = fixtures / "seed_functions.py" / "inner.py"
    assert_fails(run_cli("convert", below_a_file), 2,
                 f"{below_a_file}: cannot read: Not a directory")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
def test_file_without_read_permission(run_cli, tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("x = 1\n")
    secret.chmod(0)
    assert_fails(run_cli("convert", secret), 2, f"{secret}: cannot read: Permission denied")


def test_not_utf8(run_cli, tmp_path):
    latin1 = tmp_path / "latin1.py"
    latin1.write_bytes('x = 1\nname = "café"\n'.encode("latin-1"))
    assert_fails(run_cli("convert", latin1), 1,
                 f"{latin1}:2:12: not valid UTF-8 (byte 0xe9); autograph reads source "
                 "files as UTF-8")


def test_syntax_error(run_cli, fixtures):
    path = fixtures / "syntax_error.py"
    result = run_cli("convert", path)
    assert_fails(result, 1, f"{path}:5:11: '(' was never closed")
    assert result.stdout == ""


def test_unsupported_construct_is_reported_and_the_rest_converted(run_cli, fixtures, tmp_path,
                                                                 import_file):
    path = fixtures / "unsupported.py"
    result = run_cli("convert", path)
    assert_fails(result, 1, f"{path}:3:9: generator functions (yield) are not supported; "
                            "count_up() is left as written")
    assert "def count_up(n):\n    for i in range(n):\n        yield i\n" in result.stdout
    assert "ag__.if_stmt" in result.stdout
    (tmp_path / "converted.py").write_text(result.stdout)
    converted = import_file(tmp_path / "converted.py")
    assert list(converted.count_up(3)) == [0, 1, 2]
    assert [converted.double_positive(x) for x in (4, -4)] == [8, 0]


def test_debug_shows_the_traceback(run_cli, fixtures):
    path = fixtures / "syntax_error.py"
    result = run_cli("convert", "--debug", path)
    assert result.returncode == 1
    assert result.stderr.startswith("Traceback")
    assert result.stderr.endswith(f"{path}:5:11: '(' was never closed\n")


def test_already_converted_file(run_cli, fixtures, tmp_path):
    converted = tmp_path / "converted.py"
    converted.write_text(run_cli("convert", fixtures / "seed_functions.py").stdout)
    assert_fails(run_cli("convert", converted), 1,
                 f"{converted}:3: the name ag__ is reserved for autograph's operators (was "
                 "this file converted already?)")


def test_every_input_is_processed_and_the_worst_status_wins(run_cli, fixtures, tmp_path):
    missing = tmp_path / "missing.py"
    result = run_cli("convert", fixtures / "unsupported.py", missing,
                     fixtures / "seed_functions.py")
    assert result.returncode == 2
    assert result.stderr.splitlines()[1] == f"{missing}: no such file"
    assert "def sum_even(items):" in result.stdout and "def count_up(n):" in result.stdout


@pytest.mark.parametrize("args", [(), ("convert",), ("convert", "x.py", "--check", "--diff"),
                                  ("convert", "x.py", "--check", "-o", "y.py"), ("frobnicate",)])
def test_usage_errors_exit_with_status_2(run_cli, args):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert "usage: autograph" in result.stderr
