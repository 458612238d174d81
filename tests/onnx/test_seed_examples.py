"""The seed article's functions (examples/seed.py) exported to ONNX: those that compute
give our runtime's results in onnxruntime and ONNX's reference evaluator; those with
effects (the Variable's `assign_add`, `ag.print`) and the unknown-rank signature of
`add_one` are refused with the reason."""

import os
import sys

import numpy as np
import pytest

import autograph_py as ag
from tests.onnx import runners
from tests.onnx.test_differential import _same

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
import seed  # noqa: E402

F32, I32 = ag.float32, ag.int32
COMPUTING = {
    "f": (seed.f, [ag.TensorSpec([1, 2], F32)] * 2,
          [np.array([[2.0, 3.0]], np.float32), np.array([[3.0, -2.0]], np.float32)]),
    "compute_z0": (seed.compute_z0, [ag.TensorSpec([], F32)], [np.array(2.0, np.float32)]),
    "double": (seed.double, [ag.TensorSpec([None], I32)], [np.array([1, 2], np.int32)]),
    "sum_even": (seed.sum_even, [ag.TensorSpec([None], I32)],
                 [np.array([10, 12, 15, 20], np.int32)]),
    "square_if_positive": (seed.square_if_positive, [ag.TensorSpec([], F32)],
                           [np.array(-3.0, np.float32)]),
}


@pytest.mark.parametrize("name", sorted(COMPUTING))
def test_seed_function_exports_and_agrees(name):
    fn, signature, args = COMPUTING[name]
    model = ag.onnx.export(fn, *signature)
    traced = fn if hasattr(fn, "get_concrete_function") else ag.function(fn)
    expected = [np.asarray(t.numpy()) for t in ag.nest.flatten(traced(*args))]
    _same(expected, runners.reference(model)(*args), f"{name} reference evaluator")
    _same(expected, runners.runtime(model)(*args), f"{name} onnxruntime")


@pytest.mark.parametrize("fn, signature, message", [
    (seed.ScalarModel().increment, [ag.TensorSpec([], I32)], r"\(AssignAddVariable\) created "
                                                             r"at .*seed\.py:\d+"),
    (seed.print_element, [ag.TensorSpec([None], I32)], r"\(PrintV2\) created at .*seed\.py"),
    (seed.add_one, [], "input x has an unknown rank"),
])
def test_seed_functions_refused_say_why(fn, signature, message):
    with pytest.raises(ag.onnx.ExportError, match=message):
        ag.onnx.export(fn, *signature)
