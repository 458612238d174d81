"""`autograph export` (autograph_py/cli/export.py): the model it writes computes what our
runtime computes; refusals and usage errors exit 1 and 2 with one line naming the cause."""

import importlib.util
import subprocess
import sys
import textwrap

import numpy as np
import onnx
import onnxruntime

import autograph_py as ag

SOURCE = textwrap.dedent("""\
    import autograph_py as ag
    print("top-level code ran")

    def sum_even(items):
        s = 0
        for c in items:
            if c % 2 > 0:
                continue
            s += c
        return s

    def noisy(x):
        ag.print(x)
        return x

    if __name__ == "__main__":
        raise SystemExit("the script part must not run")
""")


def _run(*args):
    return subprocess.run([sys.executable, "-m", "autograph_py.cli", *args],
                          capture_output=True, text=True)


def test_export_writes_a_model_that_computes_what_the_function_does(tmp_path):
    source = tmp_path / "seed_model.py"
    source.write_text(SOURCE)
    out = tmp_path / "sum_even.onnx"
    result = _run("export", str(source), "-f", "sum_even", "-s", "int32[None]", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # the file's print goes to standard error
    assert "top-level code ran" in result.stderr
    onnx.checker.check_model(str(out), full_check=True)
    session = onnxruntime.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    items = np.array([10, 12, 15, 20], np.int32)
    [got] = session.run(None, {"items": items})
    # The oracles: our runtime on the same function, and plain Python.
    assert got == ag.function(_load(source).sum_even)(ag.constant(items)).numpy()
    assert got == sum(int(c) for c in items if c % 2 == 0)


def _load(path):
    spec = importlib.util.spec_from_file_location("seed_model_for_oracle", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_refused_op_exits_1_naming_the_users_line(tmp_path):
    source = tmp_path / "noisy_model.py"
    source.write_text(SOURCE)
    result = _run("export", str(source), "-f", "noisy", "-s", "float32[]",
                  "-o", str(tmp_path / "n.onnx"))
    assert result.returncode == 1
    assert f"(PrintV2) created at {source}:13 cannot be exported" in result.stderr
    assert not (tmp_path / "n.onnx").exists()


def test_an_unknown_function_is_a_usage_error(tmp_path):
    source = tmp_path / "other_model.py"
    source.write_text(SOURCE)
    result = _run("export", str(source), "-f", "sum_evn", "-s", "int32[None]",
                  "-o", str(tmp_path / "m.onnx"))
    assert result.returncode == 2
    assert "no function named 'sum_evn'; did you mean sum_even?" in result.stderr


def test_a_directory_as_output_is_a_usage_error(tmp_path):
    source = tmp_path / "dir_model.py"
    source.write_text(SOURCE)
    result = _run("export", str(source), "-f", "sum_even", "-s", "int32[None]",
                  "-o", str(tmp_path))
    assert result.returncode == 2
    assert "is a directory; name the model file" in result.stderr
    assert "top-level code ran" not in result.stderr  # refused before the import


def test_dash_writes_the_model_to_standard_output(tmp_path):
    source = tmp_path / "stdout_model.py"
    source.write_text(SOURCE)
    result = subprocess.run([sys.executable, "-m", "autograph_py.cli", "export", str(source),
                             "-f", "sum_even", "-s", "int32[None]", "-o", "-"],
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    model = onnx.load_from_string(result.stdout)  # the file's print went to stderr
    assert [i.name for i in model.graph.input] == ["items"]
