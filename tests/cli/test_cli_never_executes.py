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
    assert "_ag__.if_stmt" in result.stdout
    assert not marker.exists()
    # The fixture does write the marker when it runs: the check above is meaningful.
    ran = subprocess.run([sys.executable, path], env=env, capture_output=True, text=True)
    assert ran.returncode != 0 and marker.exists()
