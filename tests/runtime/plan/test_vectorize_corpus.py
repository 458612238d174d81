"""The converter corpus (tests/converters/corpus.py) staged by `ag.function` with the
vectorization pass on and off: the same answers, bit for bit and of the same dtypes, or
the same error; and the pass's own bugs (a reason starting with INTERNAL_ERROR) never
happen. Cases whose arguments are numbers or numeric lists run on tensors of them."""


import numpy as np
import pytest
from autograph_py.runtime.plan.passes.vectorize import INTERNAL_ERROR
from autograph_py.runtime.plan.vectorize import emit

import autograph_py as ag
from tests.converters.tensor_cases import as_tensor, tensor_cases

STAGED = [pytest.param(case, i, id=f"{case.name}-{i}") for case, i in tensor_cases()]


def _run(case, index, vectorize, monkeypatch):
    monkeypatch.setenv("AUTOGRAPH_VECTORIZE", "1" if vectorize else "0")
    function = ag.function(case.fn)
    tensors = [as_tensor(a) for a in case.arg_tuples()[index]]
    try:
        result = function(*tensors)
    except Exception as error:  # noqa: BLE001 (compared between the two runs)
        return ("error", type(error).__name__, str(error)), []
    plan = function.get_concrete_function(*tensors)._plan
    values = [np.asarray(v) for v in ag.nest.flatten(result)]
    return [(v.dtype.str, v.shape, v.tobytes()) for v in values], plan.vectorized


@pytest.mark.parametrize("case, index", STAGED)
def test_the_pass_changes_no_answer(case, index, monkeypatch):
    monkeypatch.setattr(emit, "MIN_TRIPS", 1)  # (the corpus's loops are short)
    on, loops = _run(case, index, True, monkeypatch)
    off, _ = _run(case, index, False, monkeypatch)
    assert on == off
    for op, reason in loops:
        assert not (reason or "").startswith(INTERNAL_ERROR), (op, reason)
