"""The real-code harness's CI budget: a few quick stdlib modules converted by
`autograph convert`, each checked by its CPython test module against an unconverted
copy, with the fast path on (the default) and off (AUTOGRAPH_FAST_PATH=0).

Each module must have no test that passes on the copy and not converted, and no
converted file that is not valid Python. `python -m tests.realcode` runs all the
modules (docs/realcode.md). A module that still fails belongs in KNOWN, with the
reason, as a strict xfail: it fails the run once it passes.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.realcode.harness import SETTINGS, Converter, check_module
from tests.realcode.modules import BY_NAME, CI

# Seconds per run: each module's tests take under 10 s converted; a conversion bug that
# makes a loop spin must not hold the suite for long.
TIMEOUT = 60

# module -> why it still fails converted (a strict xfail: remove it once it passes).
KNOWN = {}  # module -> why it still fails (a strict xfail); none today


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("realcode"))
    converter = Converter(work, timeout=TIMEOUT)
    with ThreadPoolExecutor(2) as pool:
        futures = {name: pool.submit(check_module, BY_NAME[name], work, converter,
                                     list(SETTINGS), TIMEOUT) for name in CI}
        return {name: future.result() for name, future in futures.items()}


def _params():
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN[name]))
            if name in KNOWN else name for name in CI]


@pytest.mark.parametrize("name", _params())
def test_converted_module_passes_its_cpython_tests(results, name):
    result = results[name]
    assert not result.invalid, f"converted files that are not valid Python: {result.invalid}"
    assert result.base.problem is None, f"the unconverted copy's run: {result.base.problem}"
    assert len(result.baseline_passing) > 0, "no test passes on the unconverted copy"
    for setting, run in result.converted.items():
        failing = [f"{test}: {o['status']}: {o.get('error')} at {o.get('where')}"
                   for test, o in result.newly_failing(setting).items()]
        assert not failing, (
            f"fast path {setting} ({run.problem or 'ran to the end'}): {len(failing)} tests "
            "that pass unconverted fail converted:\n" + "\n".join(failing[:8]))
