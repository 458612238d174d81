"""Every function of the converter corpus (tests/converters/corpus.py), converted, gives
the plain-Python result in each mode: Python values, eager tensors, symbolic tensors run
by a Session, and ag.function."""

import pytest

from tests.api.modes import MODES, assert_same, run_mode
from tests.converters.corpus import CASES

# Cases whose graph form is impossible by nature, with the reason (an honest xfail).
GRAPH_XFAIL = {
    "recursive": (
        "recursion on a symbolic value never ends while tracing: each call stages both "
        "branches, including the recursive call (docs/limitations.md)"),
}


def _params():
    for case in CASES:
        modes = ("python",) if case.python_only else MODES
        for i, _ in enumerate(case.args):
            for mode in modes:
                marks = []
                reason = GRAPH_XFAIL.get(case.name)
                if reason and mode in ("graph", "function"):
                    marks.append(pytest.mark.xfail(reason=reason, strict=True))
                yield pytest.param(case, i, mode, id=f"{case.name}-{i}-{mode}", marks=marks)


@pytest.mark.parametrize("case, index, mode", list(_params()))
def test_converted_matches_python(case, index, mode):
    expected_args = case.arg_tuples()[index]
    try:
        expected = case.fn(*expected_args)
    except Exception as e:  # the converted code must fail too, in every mode
        with pytest.raises(Exception) as info:
            run_mode(mode, case.fn, case.arg_tuples()[index])
        assert isinstance(info.value, type(e)) or mode in ("graph", "function")
        return
    actual = run_mode(mode, case.fn, case.arg_tuples()[index])
    assert_same(expected, actual)
