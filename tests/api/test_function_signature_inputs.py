"""numpy inputs of an `input_signature` (issue 25, bug 15): TensorFlow converts a numpy
array to the spec's dtype, so a float32 signature takes numpy's default float64. Here a
numpy value is converted when that is exact, or when a float only loses precision
(float64 to float32, as TensorFlow does); otherwise (a fraction to an integer, a finite
value overflowing to inf) the error names the argument, the spec and the reason. Tensors
keep their dtype (TensorFlow refuses a float64 tensor too). The oracle is numpy's cast."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import autograph_py as ag

FLOAT32_VECTOR = [ag.TensorSpec([None], ag.float32)]


def _double(x):
    return x * 2.0


def test_float64_arrays_are_converted_to_a_float32_signature():
    f = ag.function(_double, input_signature=FLOAT32_VECTOR)
    for value in (np.array([0.1, 2.5]), np.linspace(0.0, 1.0, 7), np.array([1.0], np.float32)):
        result = f(value)
        assert result.dtype == ag.float32
        np.testing.assert_array_equal(result.numpy(), value.astype(np.float32) * np.float32(2))
    assert f.trace_count == 1


@settings(max_examples=50, deadline=None)
@given(hnp.arrays(np.float64, st.integers(0, 5),
                  elements=st.floats(-1e30, 1e30, allow_nan=False)))
def test_any_float64_array_in_float32_range_converts_like_numpy(value):
    f = _HYPOTHESIS_FUNCTION
    np.testing.assert_array_equal(f(value).numpy(), value.astype(np.float32))


_HYPOTHESIS_FUNCTION = ag.function(lambda x: ag.identity(x), input_signature=FLOAT32_VECTOR)


def test_numpy_scalars_and_exact_integers_convert():
    scalar = ag.function(_double, input_signature=[ag.TensorSpec([], ag.float32)])
    assert scalar(np.float64(0.1)).numpy() == np.float32(0.1) * np.float32(2)
    as_float = ag.function(_double, input_signature=FLOAT32_VECTOR)
    np.testing.assert_array_equal(as_float(np.array([1, 2**24])).numpy(), [2.0, 2.0**25])
    as_int = ag.function(lambda x: x + 1, input_signature=[ag.TensorSpec([None], ag.int32)])
    result = as_int(np.array([1.0, -3.0]))
    assert result.dtype == ag.int32 and result.numpy().tolist() == [2, -2]


@pytest.mark.parametrize("value, spec, reason", [
    (np.array([1.5, 2.0]), ag.TensorSpec([None], ag.int32),
     r"got a numpy float64 array: cannot convert array\(\[1.5, 2. \]\) \(dtype float64\) to "
     r"a tensor of dtype int32 without losing information"),
    (np.array([1e6]), ag.TensorSpec([None], ag.float16),
     r"got a numpy float64 array: cannot convert array\(\[1000000.\]\) to float16: it "
     r"overflows to inf"),
    (np.int64(2**40), ag.TensorSpec([], ag.int32),
     r"got a numpy int64 scalar: cannot convert .* to a tensor of dtype int32"),
])
def test_a_numpy_value_that_does_not_fit_says_why(value, spec, reason):
    f = ag.function(lambda x: x, input_signature=[spec])
    with pytest.raises(ValueError, match=r"Python inputs incompatible with input_signature: "
                                         rf"argument 'x' expected {_escaped(spec)}, {reason}"):
        f(value)
    assert f.trace_count == 0


def _escaped(spec):
    return str(spec).replace("(", r"\(").replace(")", r"\)")


def test_a_float64_tensor_is_refused_as_in_tensorflow():
    f = ag.function(_double, input_signature=FLOAT32_VECTOR)
    with pytest.raises(ValueError, match=r"argument 'x' expected .*float32.*got "
                                         r"TensorSpec\(shape=\(2,\), dtype=float64\)"):
        f(ag.constant(np.array([1.0, 2.0])))


def test_an_inlined_call_converts_alike():
    inner = ag.function(_double, input_signature=FLOAT32_VECTOR)

    @ag.function
    def outer(y):
        return inner(np.array([0.25, 0.5])) + y

    np.testing.assert_array_equal(outer(ag.constant([1.0, 1.0])).numpy(), [1.5, 2.0])


def test_a_concrete_function_converts_numpy_arguments():
    f = ag.function(_double, input_signature=FLOAT32_VECTOR)
    concrete = f.get_concrete_function()
    value = np.array([0.1, 0.2])
    np.testing.assert_array_equal(concrete(value).numpy(),
                                  value.astype(np.float32) * np.float32(2))
    with pytest.raises(TypeError, match="without losing information"):
        ag.function(lambda x: x, input_signature=[ag.TensorSpec([None], ag.int32)]) \
            .get_concrete_function()(np.array([0.5]))
