"""Every minimized fuzz case (tests/fuzz/cases/*.py) gives Python's answers in every mode
(those of its `modes:` line, if it has one).

A mode passes when it matches the plain-Python oracle or stops with a documented
rejection (rejections.py). A case whose header has an `xfail:` line is a known bug, not
fixed yet: a strict xfail, so the fix shows up as an XPASS until the line is removed.
"""

import pytest

from tests.fuzz import cases, runner


def _params():
    for case in cases.all_cases():
        marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
        yield pytest.param(case, id=case.path.stem, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_case_matches_python(case):
    report = runner.run(case.source, case.inputs, case.modes, path=str(case.path))
    failures = report.failures()
    assert not failures, "\n".join(f"{r.mode}: {r.outcome}: {r.detail}" for r in failures)
