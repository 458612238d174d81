"""The fuzz runner's hang limit counts the CPU time a mode uses, so a machine busy with
other work (the mode waits for a core: wall time passes, CPU time does not) reports no
false hang; a mode that computes forever, or blocks forever, is still a hang."""

import time

import pytest

from tests.fuzz import runner
from tests.test_fuzz import HANGS  # computes forever

# As if the machine were busy elsewhere: wall time passes, the program uses no CPU.
WAITS = """\
import time

def f(a, b, xs):
    time.sleep(0.5)
    return a
"""


def test_waiting_is_not_a_hang():
    report = runner.run(WAITS, [(1, 0, [])], modes=("python",), seconds=0.2)
    assert report.modes["python"].outcome == "match"


def test_computing_past_the_cpu_limit_is_a_hang():
    result = runner.run_mode("python", runner.load(HANGS), HANGS, [(0, 0, [])], [0],
                             seconds=0.2)
    assert (result.outcome, result.kind) == ("hang", "hang")
    assert "CPU time" in result.detail


def test_blocking_past_the_wall_clock_backstop_is_a_hang():
    seconds = 0.02
    start = time.monotonic()
    with pytest.raises(runner.Hang, match="wall-clock"):
        with runner.time_limit(seconds):
            time.sleep(seconds * runner.WALL_FACTOR * 5)
    assert time.monotonic() - start < seconds * runner.WALL_FACTOR * 5


@pytest.mark.parametrize("oracle_seconds", [0.0, 1e-4, 0.01, 2.0])
def test_the_limit_scales_with_the_oracle_above_a_floor(oracle_seconds):
    limit = runner.hang_limit(oracle_seconds, 3.0)
    assert limit >= 3.0 and limit >= runner.ORACLE_MULTIPLE * oracle_seconds
    assert limit in (3.0, runner.ORACLE_MULTIPLE * oracle_seconds)
