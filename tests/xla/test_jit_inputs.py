"""Inputs of compiled calls (runtime/xla/compiled.py `DeviceCopies`): a tensor's JAX copy
is kept while the tensor lives (a small one from its second call on), so the values a
compiled function sees must always be the ones passed: fresh Python numbers each call,
tensors reused, results fed back, arrays that die and whose ids come back. The oracle
is the same function through the numpy runtime."""

import gc

import numpy as np
import pytest

import autograph_py as ag


def affine(x, y):
    return x * 3 + y


@pytest.mark.parametrize("shape", [(), (3,), (40, 40)])  # small and large (> 4 KB)
def test_every_call_sees_its_own_inputs(shape):
    compiled = ag.function(affine, jit_compile=True)
    oracle = ag.function(affine)
    kept = ag.constant(np.full(shape, 2.0, np.float32))
    previous = kept
    for k in range(6):
        fresh = ag.constant(np.full(shape, float(k), np.float32))  # dies after the call
        for x, y in ((fresh, kept), (kept, fresh), (previous, kept), (kept, kept)):
            np.testing.assert_array_equal(compiled(x, y).numpy(), oracle(x, y).numpy())
        previous = compiled(previous, fresh)  # a result fed to the next call
        gc.collect()


def test_python_numbers_each_call():
    compiled = ag.function(affine, jit_compile=True)
    for k in range(5):
        assert compiled(ag.constant(k), k + 1).numpy() == affine(k, k + 1)
