"""Every elementwise and reduction row, on every dtype our op accepts: the export either
refuses it (an `ExportError` naming the op: ONNX defines no such operator for the
dtype) or both ONNX runners give our results. No third outcome: a dtype ONNX allows
but onnxruntime 1.32 has no kernel for is listed in `ORT_MISSING` and checked to fail
in onnxruntime alone (the model is valid ONNX; the reference evaluator runs it), so the
list shrinks when onnxruntime grows."""

import numpy as np
import onnxruntime
import pytest

import autograph_py as ag
from tests.onnx import runners
from tests.onnx.test_differential import _same

UNARY = {"negative": ag.negative, "abs": ag.abs, "square": ag.square, "sign": ag.sign,
         "relu": ag.nn.relu, "round": ag.round, "sqrt": ag.sqrt, "exp": ag.exp,
         "log": ag.log, "tanh": ag.tanh, "sigmoid": ag.sigmoid, "floor": ag.floor,
         "ceil": ag.ceil, "is_nan": ag.math.is_nan, "is_inf": ag.math.is_inf,
         "is_finite": ag.math.is_finite, "reduce_sum": ag.reduce_sum,
         "reduce_prod": ag.reduce_prod, "reduce_max": ag.reduce_max,
         "reduce_min": ag.reduce_min, "argmax": ag.argmax, "cumsum": ag.cumsum,
         "sort": ag.sort}
BINARY = {"add": ag.add, "subtract": ag.subtract, "multiply": ag.multiply,
          "maximum": ag.maximum, "minimum": ag.minimum, "pow": ag.pow, "equal": ag.equal,
          "not_equal": ag.not_equal, "less": ag.less, "less_equal": ag.less_equal,
          "greater": ag.greater, "greater_equal": ag.greater_equal, "divide": ag.divide,
          "floordiv": ag.math.floordiv, "mod": ag.math.mod}
DTYPES = ["int8", "int16", "uint8", "int32", "int64", "float16", "float32", "float64"]
# Valid ONNX that onnxruntime 1.32's CPU provider has no kernel for.
ORT_MISSING = {("relu", "int16"), ("maximum", "int16"), ("minimum", "int16"),
               ("argmax", "int16")}


def _function(fn, arity):
    if arity == 1:
        def one(x):
            return fn(x)
        return one

    def two(x, y):
        return fn(x, y)
    return two


CASES = [(name, fn, 1, dtype) for name, fn in UNARY.items() for dtype in DTYPES] + \
    [(name, fn, 2, dtype) for name, fn in BINARY.items() for dtype in DTYPES]


@pytest.mark.parametrize("name, fn, arity, dtype", CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_refused_or_exact(name, fn, arity, dtype):
    rng = np.random.default_rng(3)
    args = [rng.integers(1, 5, 6).astype(dtype) for _ in range(arity)]
    spec = ag.TensorSpec([None], ag.as_dtype(dtype))
    function = _function(fn, arity)
    try:
        expected = runners.ours(function, [spec] * arity)(*args)
    except (TypeError, ValueError):
        return  # our op refuses the dtype itself: nothing to export
    try:
        model = ag.onnx.export(function, *[spec] * arity)
    except ag.onnx.ExportError as e:
        assert "cannot be exported" in str(e) and "test_dtypes.py" in str(e)
        return
    _same(expected, runners.reference(model)(*args), f"{name} {dtype} reference evaluator")
    if (name, dtype) in ORT_MISSING:
        with pytest.raises(onnxruntime.capi.onnxruntime_pybind11_state.NotImplemented):
            runners.runtime(model)
        return
    _same(expected, runners.runtime(model)(*args), f"{name} {dtype} onnxruntime")
