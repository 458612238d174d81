"""The staging tests' cases (tests/api: Python semantics, loop patterns, staged repros)
in the jit_compile mode: `ag.function(fn, jit_compile=True)` gives the plain-Python
result, as the other modes do. Cases XLA cannot compile by nature are strict xfails
with the reason (docs/xla.md)."""

import pytest
from autograph_py.runtime import nest

from tests.api import test_python_semantics, test_staged_repros, test_staging_loops
from tests.api.modes import assert_same, run_mode, to_numpy


def _cases():
    for fn, arg_tuples in test_python_semantics.CASES:
        for args in arg_tuples:
            yield fn, args
    yield from test_staging_loops.CASES
    yield from test_staged_repros.CASES.args[1]


CASES = list(_cases())
# fn name -> why XLA cannot compile it: each grows or shrinks a list (or a tensor) a
# number of times known only at run time, so a loop variable's shape would vary.
_DATA_LENGTH = ("a list's length depends on run-time values (a data-dependent append, "
                "pop or concat count); XLA compiles static shapes only (docs/xla.md)")
XFAIL = dict.fromkeys(
    ["list_conditions", "list_in_while_true", "guarded_by_the_list", "pop_in_an_expression",
     "pop_statement", "packed_in_a_loop"], _DATA_LENGTH)


def _params():
    for i, (fn, args) in enumerate(CASES):
        reason = XFAIL.get(fn.__name__)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        yield pytest.param(fn, args, id=f"{fn.__name__}-{i}", marks=marks)


@pytest.mark.parametrize("fn, args", list(_params()))
def test_compiled_matches_python(fn, args):
    try:
        expected = fn(*args)
    except Exception as e:  # the compiled function must fail too
        with pytest.raises(Exception) as info:
            run_mode("jit_compile", fn, args)
        assert info.value is not None, e
        return
    assert_same(nest.map_structure(to_numpy, expected), run_mode("jit_compile", fn, args))
