"""Where results go: `-o` to a file or a directory (atomically, never over an input or a
read-only file), `--diff`, `--check`; and `--version` / `--help`."""

import os
import stat

import pytest

from autograph_py.cli import output as cli_output

IMPORT = "from autograph_py import operators as __ag__"


def test_output_file(run_cli, fixtures, tmp_path):
    source = fixtures / "seed_functions.py"
    before = source.read_bytes()
    target = tmp_path / "seed_ag.py"
    result = run_cli("convert", source, "-o", target)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert target.read_text() == run_cli("convert", source).stdout
    assert source.read_bytes() == before
    assert os.listdir(tmp_path) == ["seed_ag.py"]  # no temporary file left behind
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_output_file_is_replaced_keeping_its_permissions(run_cli, fixtures, tmp_path):
    target = tmp_path / "out.py"
    target.write_text("old\n")
    target.chmod(0o640)
    assert run_cli("convert", fixtures / "tabs.py", "-o", target).returncode == 0
    assert IMPORT in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.parametrize("existing", [True, False])
def test_output_directory_with_several_inputs(run_cli, fixtures, tmp_path, existing):
    out = tmp_path / "converted"
    if existing:
        out.mkdir()
    inputs = [fixtures / "seed_functions.py", fixtures / "tabs.py"]
    result = run_cli("convert", *inputs, "-o", out)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert sorted(os.listdir(out)) == ["seed_functions.py", "tabs.py"]
    for path in inputs:
        assert (out / path.name).read_text() == run_cli("convert", path).stdout


def test_single_input_into_an_existing_directory(run_cli, fixtures, tmp_path):
    assert run_cli("convert", fixtures / "tabs.py", "-o", tmp_path).returncode == 0
    assert os.listdir(tmp_path) == ["tabs.py"]


def test_file_with_an_unsupported_construct_is_still_written(run_cli, fixtures, tmp_path):
    result = run_cli("convert", fixtures / "unsupported.py", "-o", tmp_path / "out.py")
    assert result.returncode == 1
    assert "first_zero() is left as written" in result.stderr
    assert "def first_zero(xs):" in (tmp_path / "out.py").read_text()


def test_read_only_output_is_not_overwritten(run_cli, fixtures, tmp_path):
    target = tmp_path / "read_only.py"
    target.write_text("keep me\n")
    target.chmod(0o444)
    result = run_cli("convert", fixtures / "tabs.py", "-o", target)
    assert (result.returncode, result.stderr) == (2, f"{target}: output file is not writable\n")
    assert target.read_text() == "keep me\n"


def test_output_over_the_input_is_refused(run_cli, fixtures, tmp_path):
    source = tmp_path / "model.py"
    source.write_text((fixtures / "tabs.py").read_text())
    result = run_cli("convert", source, "-o", source)
    assert result.returncode == 2
    assert result.stderr == f"{source}: is the input file; autograph never modifies its input\n"
    assert source.read_text() == (fixtures / "tabs.py").read_text()


@pytest.mark.parametrize("make_target, message", [
    (lambda d: d / "missing" / "out.py", "{t}: directory {d}/missing does not exist"),
    (lambda d: d / "file.py", "{t}: several inputs or a folder need an output directory, and "
                              "this is a file"),
])
def test_unusable_output_paths(run_cli, fixtures, tmp_path, make_target, message):
    target = make_target(tmp_path)
    (tmp_path / "file.py").write_text("")
    inputs = [fixtures / "tabs.py"] * (2 if target.name == "file.py" else 1)
    result = run_cli("convert", *inputs, "-o", target)
    assert (result.returncode, result.stderr) == (2, message.format(t=target, d=tmp_path) + "\n")


def test_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.py"
    target.write_text("old\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cli_output.write_atomically(str(target), "new\n")
    assert os.listdir(tmp_path) == ["out.py"]
    assert target.read_text() == "old\n"


def test_diff(run_cli, fixtures):
    path = fixtures / "seed_functions.py"
    result = run_cli("convert", path, "--diff")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"--- {path}", f"+++ {path} (converted)"]
    assert f"+{IMPORT}" in lines
    # Each function stays as written (the fast path) and its conversion is added.
    assert "+    __ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('x',))" \
        in lines
    assert not [line for line in lines[2:] if line.startswith("-")]  # nothing undecorated
    # The lines the diff shows as context are the original's, in order.
    original = iter(path.read_text().splitlines())
    assert all(line[1:] in original for line in lines[2:] if line[:1] == " ")


def test_check_prints_only_problems(run_cli, fixtures):
    ok = run_cli("convert", fixtures / "seed_functions.py", fixtures / "tabs.py", "--check")
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")
    bad = run_cli("convert", fixtures / "seed_functions.py", fixtures / "unsupported.py",
                  "--check")
    assert (bad.returncode, bad.stdout) == (1, "")
    assert bad.stderr.count("\n") == 2 and "first_zero() is left as written" in bad.stderr
    assert "count_up() is a generator" in bad.stderr  # a note: not a problem by itself


def test_version(run_cli):
    result = run_cli("--version")
    assert (result.returncode, result.stdout) == (0, "autograph 0.1.0\n")


def test_help(run_cli):
    top = run_cli("--help")
    assert top.returncode == 0 and "convert" in top.stdout
    convert = run_cli("convert", "--help")
    assert convert.returncode == 0
    for text in ["--function NAME", "--output PATH", "--check", "--diff", "--debug",
                 "examples:", "autograph convert model.py -o model_ag.py", "exit status: 0"]:
        assert text in convert.stdout
