"""TensorFlow's spellings a TF user types in their first hour (dtype comparisons,
ag.function keywords, the tensor repr, small protocol details), each checked against
what numpy or plain Python says."""

import numpy as np
import pytest

import autograph_py as ag


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "int8", "int16", "int32",
                                  "int64", "uint8", "bool"])
def test_dtype_equals_numpy_type_dtype_and_name(name):
    np_dtype = np.dtype(name)
    dtype = ag.as_dtype(np_dtype.type)
    assert dtype is ag.as_dtype(name) is ag.as_dtype(np_dtype)
    assert dtype.np_dtype == np_dtype
    tensor = ag.constant(np.zeros(2, np_dtype))
    assert tensor.dtype == np_dtype.type and np_dtype.type == tensor.dtype
    assert tensor.dtype == np_dtype and tensor.dtype == name
    others = [d for d in ("float32", "int32", "bool") if d != name]
    assert all(tensor.dtype != d and tensor.dtype != np.dtype(d).type for d in others)
    assert hash(dtype) == hash(name)  # usable as a dict key next to its name


def test_dtype_differs_from_things_that_are_not_dtypes():
    assert ag.float32 != "no such dtype" and ag.float32 != None  # noqa: E711
    assert ag.float32 != 1.0
