"""Python integers beyond int64 (issue 25, bug 3): numpy would wrap `2**63` to -2**63 or
make a float of `[1, 2**63]`; conversion refuses them with a clear error, as TensorFlow
does, eagerly, in a graph and for Variables, and still takes every int64 and float."""

import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.session import Session

HUGE = [2 ** 63, -2 ** 63 - 1, [1, 2 ** 63], [[1, 2], [3, 2 ** 70]], [1, 2 ** 64]]


@pytest.mark.parametrize("value", HUGE, ids=str)
@pytest.mark.parametrize("make", [ag.constant, ag.Variable,
                                  lambda v: ag.constant(v, dtype=ag.int64)],
                         ids=["constant", "Variable", "constant-int64"])
def test_an_int_beyond_int64_is_refused(value, make):
    with pytest.raises(ValueError, match=r"out of the range of int64"):
        make(value)
    with Graph().as_default(), pytest.raises(ValueError, match=r"out of the range of int64"):
        ag.constant(value)


@pytest.mark.parametrize("value, dtype", [
    (2 ** 63 - 1, np.int64), (-2 ** 63, np.int64), (2 ** 31, np.int64), (7, np.int32),
    ([1e20, 2.0], np.float32), (float(2 ** 63), np.float32), ([1, 2.5], np.float32),
])
def test_what_fits_converts_as_before(value, dtype):
    eager = ag.constant(value)
    assert eager.numpy().dtype == dtype and np.array_equal(eager.numpy(), np.asarray(value,
                                                                                    dtype))
    with Graph().as_default():
        assert np.array_equal(Session().run(ag.constant(value)), eager.numpy())


def test_a_huge_int_as_a_float_dtype_is_the_float():
    assert ag.constant(2 ** 63, dtype=ag.float32).numpy() == np.float32(2.0 ** 63)


def test_a_huge_int_beside_a_nan_is_found():
    with pytest.raises(ValueError, match=r"out of the range of int64"):
        ag.constant([float("nan"), 2 ** 63])
    assert np.isnan(ag.constant([float("nan")]).numpy()).all()
