"""The ONNX conversion table (runtime/onnx/table.py) names real ops, and every refusal
says why: a row for an op type that does not exist would never be used, a typo in the
refusal list would let the op fall to "no ONNX conversion"."""

import pytest
from autograph_py.runtime import registry
from autograph_py.runtime.onnx import rules  # noqa: F401  (fills the table)
from autograph_py.runtime.onnx.table import REFUSED, converted_names, register_conversion

import autograph_py as ag


def test_every_row_and_refusal_names_a_registered_op():
    ag.function  # noqa: B018  (loads the API, so every op is registered)
    known = set(registry.registered_names())
    assert set(converted_names()) - known == set()
    assert set(REFUSED) - known == set()
    assert set(converted_names()) & set(REFUSED) == set()


def test_an_op_gets_one_row():
    with pytest.raises(ValueError, match="two ONNX conversions"):
        register_conversion("Add")(lambda g, op, x, y: None)


def test_the_integer_mean_is_refused_with_the_reason():
    def mean(xs):
        return ag.reduce_mean(xs)

    with pytest.raises(ag.onnx.ExportError, match=r"\(Mean\).*truncates toward zero"):
        ag.onnx.export(mean, ag.TensorSpec([None], ag.int32))
