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


def test_unreadable_path(run_cli, fixtures):
    below_a_file = fixtures / "seed_functions.py" / "inner.py"
    assert_fails(run_cli("convert", below_a_file), 2,
                 f"{below_a_file}: cannot read: Not a directory")


def test_file_without_read_permission(run_cli, tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("x = 1\n")
    secret.chmod(0)
    # Root reads any file through two capabilities: run without them (util-linux's
    # setpriv), so the file's mode decides as it does for everyone else.
    launcher = (("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--")
                if os.geteuid() == 0 else ())
    assert_fails(run_cli("convert", secret, launcher=launcher), 2,
                 f"{secret}: cannot read: Permission denied")


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
    assert_fails(result, 1, f"{path}:10:17: 'break' inside 'match' is not supported; "
                            "first_zero() is left as written\n"
                            f"{path}:1: note: count_up() is a generator; left as written "
                            "(generators run as Python)")
    original = path.read_text()
    for name in ["count_up", "first_zero"]:
        start = original.index(f"def {name}")
        assert original[start:original.index("\n\n\n", start)] in result.stdout
    assert "__ag__.if_stmt" in result.stdout
    (tmp_path / "converted.py").write_text(result.stdout)
    converted, plain = import_file(tmp_path / "converted.py"), import_file(path)
    assert list(converted.count_up(3)) == list(plain.count_up(3))
    assert converted.first_zero([3, 0, 2]) == plain.first_zero([3, 0, 2])
    assert [converted.double_positive(x) for x in (4, -4)] == [
        plain.double_positive(x) for x in (4, -4)]


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
                 f"{converted}:3: the name __ag__ is reserved for autograph's operators (was "
                 "this file converted already?)")


def test_every_input_is_processed_and_the_worst_status_wins(run_cli, fixtures, tmp_path):
    missing = tmp_path / "missing.py"
    result = run_cli("convert", fixtures / "unsupported.py", missing,
                     fixtures / "seed_functions.py")
    assert result.returncode == 2
    assert result.stderr.splitlines()[2] == f"{missing}: no such file"
    assert "def sum_even(items):" in result.stdout and "def count_up(n):" in result.stdout


@pytest.mark.parametrize("args", [(), ("convert",), ("convert", "x.py", "--check", "--diff"),
                                  ("convert", "x.py", "--check", "-o", "y.py"), ("frobnicate",)])
def test_usage_errors_exit_with_status_2(run_cli, args):
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert "usage: autograph" in result.stderr


def test_a_jump_in_finally_is_reported_and_left_as_written(run_cli, tmp_path, import_file):
    source = ("def first(xs):\n"
              "    for x in xs:\n"
              "        try:\n"
              "            if x:\n"
              "                raise ValueError(x)\n"
              "        finally:\n"
              "            continue\n"
              "    return 0\n")
    path = tmp_path / "jumps.py"
    path.write_text(source)
    result = run_cli("convert", path)
    assert_fails(result, 1, f"{path}:7:13: 'continue' inside 'finally' is not supported: it "
                 "discards an exception raised in the 'try' (PEP 765 deprecates it), which "
                 "converted code cannot do; move the 'continue' after the 'try' statement; "
                 "first() is left as written")
    converted = tmp_path / "converted_jumps.py"
    converted.write_text(result.stdout)
    assert import_file(converted).first([1, 2]) == 0
