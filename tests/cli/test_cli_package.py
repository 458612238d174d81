"""`autograph convert pkg/ -o out/` converts a package folder into `out/pkg/`: every `.py`
file converted, every other file copied as it is, the tree mirrored (`__pycache__` and
hidden names left out); problems per file, `file:line: message`; the same with --jobs.
The converted package imports and runs as the original (oracle: the original, run in
another process on the same calls) and stages its control flow on symbolic tensors."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.cli.test_cli_parallel import _big_file

PACKAGE = "shapes_pkg"
GENERATOR_NOTE = ("{root}/core.py:15: note: halves() is a generator; left as written "
                  "(generators run as Python)")


@pytest.fixture
def package(fixtures, tmp_path):
    """A copy of the fixture package, with what a real package folder also holds."""
    root = tmp_path / "src" / PACKAGE
    shutil.copytree(fixtures / PACKAGE, root)
    (root / "__pycache__").mkdir(exist_ok=True)
    (root / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"stale bytecode")
    (root / ".mypy_cache").mkdir()
    (root / ".mypy_cache" / "cache.json").write_text("{}")
    return root


def tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_the_tree_is_mirrored_py_files_converted_others_copied(run_cli, package, tmp_path):
    out = tmp_path / "out"
    result = run_cli("convert", package, "-o", out)
    assert (result.returncode, result.stdout) == (0, "")
    assert result.stderr == GENERATOR_NOTE.format(root=package) + "\n"
    converted = out / PACKAGE
    expected = [p for p in tree(package) if "__pycache__" not in p and ".mypy_cache" not in p]
    assert tree(converted) == expected
    for relative in expected:
        source, target = package / relative, converted / relative
        if source.is_dir():
            continue
        if source.suffix == ".py":
            compile(target.read_text(), str(target), "exec")
        else:  # data files, the stub, py.typed: byte for byte
            assert target.read_bytes() == source.read_bytes()
    for module in ("core.py", "geometry/area.py", "geometry/scale.py"):
        assert "from autograph_py import operators as __ag__" in (converted / module).read_text()
    # Nothing to convert: as written.
    assert (converted / "__init__.py").read_bytes() == (package / "__init__.py").read_bytes()


DRIVER = """
import json
import numpy as np
import autograph_py as ag
import shapes_pkg
from shapes_pkg.geometry import Shapes, area_or_zero

CALLS = {
    "clip (under try/except)": shapes_pkg.clip,
    "total_positive (iterates a generator)": shapes_pkg.total_positive,
    "sign (under if)": shapes_pkg.core.sign,
    "area_or_zero (relative imports, data file)": area_or_zero,
    "Shapes.Square.area (nested class)": lambda x: Shapes.Square().area(x),
}


def graph(fn, x):
    with ag.Graph().as_default() as g:
        p = ag.placeholder(ag.float32, shape=())
        try:
            result = fn(p)
        except TypeError:  # Python control flow on a symbolic tensor: not staged
            return "not staged"
        staged = sorted({op.type for op in g.get_operations()} & {"If", "While"})
        with ag.Session() as sess:
            return float(sess.run(result, feed_dict={p: x})), staged


results = {}
for name, fn in CALLS.items():
    for x in (3.0, -2.0, 12.0):
        results[f"{name} {x} python"] = fn(x)
        results[f"{name} {x} eager"] = float(np.asarray(fn(ag.constant(x))))
        results[f"{name} {x} graph"] = graph(fn, x)
print(json.dumps(results))
"""


def run_package(root, tmp_path, **env):
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    process = subprocess.run([sys.executable, str(driver)], capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(root), **env},
                             timeout=300, cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


def test_the_converted_package_runs_as_the_original_and_stages(run_cli, package, tmp_path):
    out = tmp_path / "out"
    assert run_cli("convert", package, "-o", out).returncode == 0
    original = run_package(package.parent, tmp_path)
    # Plain values through the converted code (not a fast path running the original).
    converted = run_package(out, tmp_path, AUTOGRAPH_FAST_PATH="0")
    for key, expected in original.items():
        if key.endswith("graph"):
            assert expected == "not staged", key  # the oracle needs Python bools
            value, staged = converted[key]
            assert value == original[key.replace("graph", "python")], key
            assert staged, key  # an If or While op: converted, not run as Python
        else:
            assert converted[key] == expected, key


def test_jobs_give_the_same_tree_and_messages(run_cli, package, tmp_path):
    for i in range(3):  # large enough to be spread over processes
        (package / "geometry" / f"big_{i}.py").write_text(_big_file(900))
    outputs = {}
    for jobs in (1, 3):
        out = tmp_path / f"out_{jobs}"
        result = run_cli("convert", package, "-o", out, "-j", jobs)
        assert result.returncode == 1  # the big files have unconvertible functions
        files = {p: (out / PACKAGE / p).read_bytes() for p in tree(out / PACKAGE)
                 if (out / PACKAGE / p).is_file()}
        outputs[jobs] = (result.stderr, files)
    assert outputs[1] == outputs[3]
    assert "big_2.py:" in outputs[1][0]


def test_check_and_diff_on_a_folder(run_cli, package):
    check = run_cli("convert", package, "--check")
    assert (check.returncode, check.stdout) == (0, "")
    assert check.stderr == GENERATOR_NOTE.format(root=package) + "\n"
    diff = run_cli("convert", package, "--diff")
    assert diff.returncode == 0
    headers = [line for line in diff.stdout.splitlines() if line.startswith("--- ")]
    assert headers == [f"--- {package / m}" for m in
                       ("core.py", "geometry/area.py", "geometry/scale.py")]


def test_standard_output_shows_each_module(run_cli, package):
    result = run_cli("convert", package)
    headers = [line for line in result.stdout.splitlines() if line.startswith("# ==> ")]
    assert headers == [f"# ==> {package / m} <==" for m in
                       ("__init__.py", "core.py", "geometry/__init__.py",
                        "geometry/area.py", "geometry/scale.py")]


def test_a_file_that_cannot_be_converted_is_copied_as_written(run_cli, package, tmp_path):
    (package / "legacy.py").write_text("print 'python 2'\n")
    (package / "latin1.py").write_bytes(b"NAME = '\xe9'\n")
    out = tmp_path / "out"
    result = run_cli("convert", package, "-o", out)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert f"{package}/latin1.py:1:9: not valid UTF-8 (byte 0xe9); autograph reads source " \
           "files as UTF-8; copied as written" in lines
    assert any(line.startswith(f"{package}/legacy.py:1:") and
               line.endswith("; copied as written") for line in lines), lines
    for name in ("legacy.py", "latin1.py"):
        assert (out / PACKAGE / name).read_bytes() == (package / name).read_bytes()
    assert "ag__" in (out / PACKAGE / "core.py").read_text()  # the rest still converted


def test_links_and_special_files(run_cli, package, tmp_path):
    os.symlink(package / "geometry", package / "linked_folder")
    os.symlink(package / "core.pyi", package / "linked.pyi")
    os.mkfifo(package / "pipe")
    out = tmp_path / "out"
    result = run_cli("convert", package, "-o", out)
    assert result.returncode == 1
    assert result.stderr.splitlines()[:2] == [
        f"{package}/linked_folder: not entered: a symbolic link to a folder; give its "
        "target separately",
        f"{package}/pipe: not copied: not a regular file"]
    assert not (out / PACKAGE / "linked_folder").exists()
    assert (out / PACKAGE / "linked.pyi").read_bytes() == (package / "core.pyi").read_bytes()


def test_copies_keep_the_executable_bit(run_cli, package, tmp_path):
    script = package / "geometry" / "data" / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    out = tmp_path / "out"
    assert run_cli("convert", package, "-o", out).returncode == 0
    assert os.stat(out / PACKAGE / "geometry" / "data" / "run.sh").st_mode & 0o111


def test_running_again_replaces_the_output(run_cli, package, tmp_path):
    out = tmp_path / "out"
    assert run_cli("convert", package, "-o", out).returncode == 0
    first = (out / PACKAGE / "core.py").read_text()
    assert run_cli("convert", package, "-o", out).returncode == 0
    assert (out / PACKAGE / "core.py").read_text() == first


@pytest.mark.parametrize("where, message", [
    (lambda package: package / "build", "is inside the input folder"),
    (lambda package: package.parent, "is inside the input folder"),  # out/shapes_pkg is it
])
def test_output_into_the_input_folder_is_refused(run_cli, package, where, message):
    result = run_cli("convert", package, "-o", where(package))
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_output_onto_a_file_is_refused(run_cli, package, tmp_path):
    existing = tmp_path / "file.txt"
    existing.write_text("x")
    result = run_cli("convert", package, "-o", existing)
    assert result.returncode == 2
    assert result.stderr.startswith(f"{existing}: ")


def test_folder_spelled_with_a_slash_or_dot(run_cli, package, tmp_path):
    out = tmp_path / "out"
    assert run_cli("convert", f"{package}/", "-o", out).returncode == 0
    assert run_cli("convert", ".", "-o", tmp_path / "out2", cwd=package).returncode == 0
    assert tree(out / PACKAGE) == tree(tmp_path / "out2" / PACKAGE)


def test_function_option_over_a_folder_prints_the_files_that_define_it(run_cli, package,
                                                                       tmp_path):
    result = run_cli("convert", package, "-f", "Shapes.Square.area", "-f", "clip",
                     "-f", "nope")
    assert result.returncode == 2
    assert result.stderr == f"{package}: no function named 'nope'\n"
    headers = [line for line in result.stdout.splitlines() if line.startswith("# ==> ")]
    assert headers == [f"# ==> {package / m} <==" for m in ("core.py", "geometry/area.py")]
    refused = run_cli("convert", package, "-f", "clip", "-o", tmp_path / "out")
    assert refused.returncode == 2 and "-f prints chosen functions" in refused.stderr
    assert not (tmp_path / "out").exists()


def test_without_output_only_python_files_matter(run_cli, package):
    os.mkfifo(package / "pipe")  # would not be copied: no matter when nothing is written
    os.mkfifo(package / "fifo.py")
    result = run_cli("convert", package, "--check")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == f"{package}/fifo.py: not converted: not a regular file"
    assert "pipe" not in result.stderr
