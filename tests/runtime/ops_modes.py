"""Check an op against a numpy oracle in every mode, and its gradient rule against finite
differences in every mode.

- `check_modes(fn, arrays, oracle, **options)`: eagerly and in graphs with known and
  unknown dims (`check_op`, which also checks the inferred shapes), then through
  `ag.function` and `ag.function(jit_compile=True)` (with `data_dependent=True`, a
  result shape that depends on values: the LoweringError); `options` go to `check_op`.
  Returns the eager result.
- `check_gradients(fn, arrays, second_order=True, tolerance=1e-5)`: the rules against
  central differences of sum(fn(*arrays) * w) for a random weight w: eagerly under a
  tape, in a graph (known and unknown dims), through `ag.function` under a tape, and,
  unless `second_order=False`, the gradient of the gradient (the rules' own rules) too.
  Inputs should be float64.
"""

import zlib

import numpy as np
import pytest
from autograph_py.runtime.gradients.checker import numerical_gradients, tape_gradients
from autograph_py.runtime.ops.testing import assert_same_array, check_op
from autograph_py.runtime.tensor import EagerTensor
from autograph_py.runtime.xla.table import LoweringError
from test_gradients_rules import _computed, _first_order

import autograph_py as ag

GRADIENT_MODES = ("tape", "graph", "graph with unknown dims", "function")


def check_modes(fn, arrays, oracle, **options):
    eager = check_op(fn, arrays, oracle, **options)
    expected = eager if isinstance(eager, (list, tuple)) else [eager]
    tensors = [EagerTensor(np.asarray(a)) for a in arrays]
    if options.get("data_dependent"):
        # A result shape that depends on values cannot be compiled: the error names the op.
        with pytest.raises(LoweringError, match="static shapes"):
            ag.function(fn, jit_compile=True)(*tensors)
    for jit_compile in (False, True)[:1 if options.get("data_dependent") else 2]:
        # The numpy runtime, then XLA (issue 13).
        traced = ag.function(fn, jit_compile=jit_compile)(*tensors)
        got = traced if isinstance(traced, (list, tuple)) else [traced]
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same_array(g.numpy(), e.numpy(), options.get("rtol", 1e-6),
                              f"ag.function(jit_compile={jit_compile}) output {i}")
    return eager


def _gradients(fn, arrays, grad_y, mode):
    if mode == "function":
        return tape_gradients(ag.function(fn), arrays, grad_y)
    return _computed(fn, arrays, grad_y, mode)


def _assert_close(expected, computed, tolerance, what):
    for i, (want, got) in enumerate(zip(expected, computed)):
        got = np.zeros_like(want) if got is None else got
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance,
                                   err_msg=f"{what}, input {i}")


def check_gradients(fn, arrays, second_order=True, tolerance=1e-5):
    rng = np.random.default_rng(zlib.crc32(repr([a.shape for a in arrays]).encode()))
    grad_y = rng.normal(size=fn(*map(EagerTensor, arrays)).shape.dims)
    expected = numerical_gradients(fn, arrays, grad_y)
    for mode in GRADIENT_MODES:
        _assert_close(expected, _gradients(fn, arrays, grad_y, mode), tolerance, mode)
    if not second_order:
        return
    directional = _first_order(fn, grad_y, [rng.normal(size=a.shape) for a in arrays])
    expected = numerical_gradients(directional, arrays, 1.0)
    for mode in ("tape", "graph"):
        _assert_close(expected, _computed(directional, arrays, 1.0, mode), 1e-4,
                      f"second order, {mode}")
