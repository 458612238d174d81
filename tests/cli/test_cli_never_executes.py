"""The command parses its inputs and never imports or runs them."""

import os
import subprocess
import sys


def test_input_is_not_executed(run_cli, fixtures, tmp_path):
    marker = tmp_path / "marker"
    env = {**os.environ, "AUTOGRAPH_TEST_MARKER": str(marker)}
    path = fixtures / "side_effects.py"
    result = run_cli("convert", path, env=env)
    assert (result.returncode, result.stderr) == (0, "")
    assert "__ag__.if_stmt" in result.stdout
    assert not marker.exists()
    # The fixture does write the marker when it runs: the check above is meaningful.
    ran = subprocess.run([sys.executable, path], env=env, capture_output=True, text=True)
    assert ran.returncode != 0 and marker.exists()


def test_a_package_folder_is_not_imported(run_cli, fixtures, tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text((fixtures / "side_effects.py").read_text())
    marker = tmp_path / "marker"
    env = {**os.environ, "AUTOGRAPH_TEST_MARKER": str(marker)}
    result = run_cli("convert", package, "-o", tmp_path / "out", env=env)
    assert (result.returncode, result.stderr) == (0, "")
    assert "ag__.if_stmt" in (tmp_path / "out" / "pkg" / "__init__.py").read_text()
    assert not marker.exists()
    ran = subprocess.run([sys.executable, "-c", "import pkg"], env=env, cwd=tmp_path,
                         capture_output=True, text=True)
    assert ran.returncode != 0 and marker.exists()  # importing it does run it
