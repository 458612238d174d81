"""Python's `//` and `%` in exported models, element by element over many operands: signs,
exact multiples, large magnitudes, and for floats zeros of both signs, infinities, nan
and divisors that do not divide exactly (`1.0 // 0.1 == 9.0`). The oracle is our runtime
(numpy's floor_divide / mod, Python's rules); both ONNX runners must match it exactly
(same bits up to the sign of a zero, nan where it gives nan)."""

import numpy as np
import pytest

import autograph_py as ag
from tests.onnx import runners


def divmod_(a, b):
    return a // b, a % b


def _operands(dtype, rng):
    if np.dtype(dtype).kind == "i":
        info = np.iinfo(dtype)
        a = np.concatenate([rng.integers(-50, 50, 400), rng.integers(info.min // 2,
                                                                     info.max // 2, 100),
                            [-7, 7, -7, 7, 0, -1, info.max, info.min + 1]])
        b = np.concatenate([rng.integers(1, 9, 400) * rng.choice([-1, 1], 400),
                            rng.integers(1, 1000, 100), [2, -2, -2, 2, 5, 4, 7, -3]])
        return a.astype(dtype), b.astype(dtype)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.1, -0.1, 1e30, -1e-30, 3.0]
    a = np.concatenate([rng.normal(0, 10, 300), rng.integers(-20, 20, 100) * 0.5,
                        np.repeat(special, len(special))])
    b = np.concatenate([rng.normal(0, 3, 300), rng.choice([0.5, -0.5, 2.0, -2.0, 0.1], 100),
                        np.tile(special, len(special))])
    return a.astype(dtype), b.astype(dtype)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_floor_division_and_modulo_match_ours_exactly(dtype):
    a, b = _operands(dtype, np.random.default_rng(7))
    spec = ag.TensorSpec([None], ag.as_dtype(dtype))
    model = ag.onnx.export(divmod_, spec, spec)
    expected = runners.ours(divmod_, (spec, spec))(a, b)
    for runner in (runners.reference(model), runners.runtime(model)):
        for want, got in zip(expected, runner(a, b)):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)  # nan == nan here; 0.0 == -0.0
