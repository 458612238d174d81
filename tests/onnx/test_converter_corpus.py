"""The converter corpus (tests/converters/corpus.py) through the ONNX export: every case
whose arguments are numbers or numeric lists is traced with its arguments' specs,
exported, run by onnxruntime and compared with the plain-Python result.

The issue's bar: at least 95% of these staged cases export and give Python's answer,
no wrong answer, and the rest are refused with a clear error (each listed below with
its reason, and in docs/limitations.md).
"""

import numpy as np
import pytest
from autograph_py.runtime.onnx.table import ExportError

import autograph_py as ag
from autograph_py.recursion import StagedRecursionError
from tests.converters.tensor_cases import as_tensor, tensor_cases
from tests.onnx import runners

# Refused on purpose (case name -> the error and the text it must carry).
REFUSED = {
    "with_assert": (ExportError, "op 'Assert'"),          # a check is an effect
    "assert_without_message": (ExportError, "op 'Assert'"),
    "default_args": (ValueError, "input_signature has"),   # a signature gives every argument
    "recursive": (StagedRecursionError, "recurses while it is being traced"),
}


STAGED = [pytest.param(case, i, id=f"{case.name}-{i}") for case, i in tensor_cases()]


def _expected(case, index, outputs):
    """Python's answer, flat. A list the loop grows while staged comes back as one tensor
    (a list a static loop grows stays a list of tensors: one output each)."""
    result = case.fn(*case.arg_tuples()[index])
    if isinstance(result, list) and outputs != len(result):
        return [np.asarray(result)]
    return [np.asarray(v) for v in ag.nest.flatten(result)]


def _python_raises(case, index):
    try:
        case.fn(*case.arg_tuples()[index])
    except Exception:  # noqa: BLE001 (the exported model is not asked to raise)
        return True
    return False


@pytest.mark.parametrize("case, index", STAGED)
def test_corpus_case_exports_and_gives_pythons_answer(case, index):
    args = case.arg_tuples()[index]
    if _python_raises(case, index):
        return
    tensors = [as_tensor(a) for a in args]
    specs = [ag.TensorSpec(t.shape, t.dtype) for t in tensors]
    if case.name in REFUSED:
        error, text = REFUSED[case.name]
        with pytest.raises(error, match=text):
            ag.onnx.export(case.fn, *specs)
        return
    model = ag.onnx.export(case.fn, *specs)
    got = runners.runtime(model)(*[t.numpy() for t in tensors])
    expected = _expected(case, index, len(got))
    assert len(got) == len(expected)
    for want, value in zip(expected, got):
        assert value.shape == want.shape
        np.testing.assert_allclose(value.astype(np.float64), want.astype(np.float64),
                                   rtol=1e-6, atol=1e-6)


def test_at_least_95_percent_of_the_staged_corpus_exports():
    runs = [param.values[0].name for param in STAGED
            if not _python_raises(*param.values)]
    exported = [name for name in runs if name not in REFUSED]
    assert len(exported) / len(runs) >= 0.95, sorted(set(runs) & set(REFUSED))
