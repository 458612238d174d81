"""Every numeric function of the converter corpus (tests/converters/corpus.py) runs under
`jax.jit(ag.to_graph(f))` on JAX arrays and gives the plain-Python result, except where it
needs what JAX lacks (each an honest strict xfail, listed in docs/jax.md)."""

import pytest

from tests.api.modes import assert_same, run_mode
from tests.converters.corpus import CASES

_DATA_LENGTH = ("the list's length depends on the data (a traced `break`); JAX arrays have "
                "static shapes (docs/jax.md)")
_RECURSION = ("recursion on a traced value never ends while tracing: each call traces both "
              "branches, including the recursive call (docs/jax.md)")
# (case, argument index): on a one-element list `range(len(xs))` is range(1), static, so
# that loop runs as Python and the list grows as in Python.
JAX_XFAIL = {
    ("append_then_break", 0): _DATA_LENGTH, ("append_then_break", 1): _DATA_LENGTH,
    ("break_before_append", 0): _DATA_LENGTH, ("break_before_append", 1): _DATA_LENGTH,
    ("recursive", 0): _RECURSION,
}


def _params():
    for case in CASES:
        if case.python_only:
            continue
        for i, _ in enumerate(case.args):
            reason = JAX_XFAIL.get((case.name, i))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(case, i, id=f"{case.name}-{i}", marks=marks)


@pytest.mark.parametrize("case, index", list(_params()))
def test_converted_under_jax_jit_matches_python(case, index):
    try:
        expected = case.fn(*case.arg_tuples()[index])
    except Exception:  # noqa: BLE001  (the converted code must fail too)
        with pytest.raises(Exception):  # noqa: B017
            run_mode("jax", case.fn, case.arg_tuples()[index])
        return
    assert_same(expected, run_mode("jax", case.fn, case.arg_tuples()[index]))
