"""Inputs the command refuses with one line instead of exhausting memory or the stack:
more than `MAX_INPUT_BYTES`, and trees nested deeper than `MAX_DEPTH`."""

from autograph_py.cli.limits import MAX_DEPTH, MAX_INPUT_BYTES, TOO_DEEP

TOO_BIG = "larger than 10 MB, the most autograph converts; is this a Python source file?"


def _sum_of(terms):
    """A function returning x + x + ... (`terms` times): a left-nested chain of BinOps,
    as deep as it is long."""
    return "def f(x):\n    return " + " + ".join(["x"] * terms) + "\n"


def test_dev_zero_is_refused_without_reading_it_all(run_cli):
    # Before the limit, this read until memory ran out; the timeout only guards a hang.
    result = run_cli("convert", "/dev/zero")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"/dev/zero:1: {TOO_BIG}\n"


def test_file_at_the_limit_converts_and_one_byte_more_is_refused(run_cli, tmp_path):
    assert MAX_INPUT_BYTES == 10 * 1024 * 1024  # what TOO_BIG says
    at_limit = tmp_path / "big.py"
    comment = b"# " + b"x" * (MAX_INPUT_BYTES - 3) + b"\n"
    at_limit.write_bytes(comment)
    assert run_cli("convert", at_limit, "--check").returncode == 0
    over = tmp_path / "over.py"
    over.write_bytes(comment + b"\n")
    result = run_cli("convert", over, "--check")
    assert (result.returncode, result.stderr) == (1, f"{over}:1: {TOO_BIG}\n")


def test_standard_input_over_the_limit_is_refused(run_cli):
    result = run_cli("convert", "-", stdin=" " * (MAX_INPUT_BYTES + 1))
    assert (result.returncode, result.stderr) == (1, f"<stdin>:1: {TOO_BIG}\n")


def test_deep_expression_within_the_limit_converts_and_runs(run_cli, tmp_path, import_file):
    terms = MAX_DEPTH - 20  # the chain plus FunctionDef, Return and the last Name
    source = tmp_path / "deep.py"
    source.write_text(_sum_of(terms))
    result = run_cli("convert", source, "-o", tmp_path / "deep_ag.py")
    assert (result.returncode, result.stderr) == (0, "")
    converted = import_file(tmp_path / "deep_ag.py")
    assert converted.f(3) == import_file(source).f(3)


def test_too_deep_expression_is_one_line_at_the_users_line(run_cli, tmp_path):
    source = tmp_path / "deep.py"
    source.write_text("import math\n\n" + _sum_of(MAX_DEPTH + 10))
    result = run_cli("convert", source)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"{source}:4:")
    assert result.stderr.endswith(f": {TOO_DEEP}\n")


def test_nesting_beyond_pythons_own_parser_is_the_same_one_line(run_cli, tmp_path):
    # Python's parser itself fails here (MemoryError or RecursionError), before any tree.
    for text in ["def f(x):\n    return " + "-" * 100_000 + "x\n", _sum_of(20_000)]:
        source = tmp_path / "deeper.py"
        source.write_text(text)
        result = run_cli("convert", source)
        assert (result.returncode, result.stderr) == (1, f"{source}:1: {TOO_DEEP}\n")


def test_conversion_beyond_pythons_parser_leaves_the_function_as_written(run_cli, tmp_path,
                                                                         import_file):
    # 300 `not`s parse (no parentheses); converted, each is a call: 300 nested parentheses.
    source = tmp_path / "nots.py"
    source.write_text("def f(x):\n    if x:\n        x = " + "not " * 300 + "x\n    return x\n\n\n"
                      "def g(x):\n    return -x if x > 0 else x\n")
    result = run_cli("convert", source, "-o", tmp_path / "nots_ag.py")
    assert result.returncode == 1
    assert result.stderr == (f"{source}:1: converted, this function exceeds what Python's "
                             "parser accepts (too many nested parentheses); split the "
                             "expression, e.g. with intermediate variables; f() is left as "
                             "written\n")
    converted, plain = import_file(tmp_path / "nots_ag.py"), import_file(source)
    assert [converted.f(x) for x in (0, 1)] == [plain.f(x) for x in (0, 1)]
    assert [converted.g(x) for x in (-2, 2)] == [plain.g(x) for x in (-2, 2)]
