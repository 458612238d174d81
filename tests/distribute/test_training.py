"""Data-parallel training on 8 simulated devices equals the single-device run (the
default strategy: one replica, no sharding), losses and weights to 1e-5."""

import numpy as np
import pytest

import autograph_py as ag
from tests.distribute.devices import mirrored
from tests.distribute.programs import MLP, STEPS, Linear, train

MODES = ["eager", "function", "jit", "epoch"]


@pytest.fixture(scope="module")
def strategy():
    return mirrored(8)


@pytest.mark.parametrize("model", [Linear, MLP], ids=["linear", "mlp"])
@pytest.mark.parametrize("mode", MODES)
def test_training_on_8_devices_equals_one_device(strategy, model, mode):
    expected_losses, expected_weights = train(ag.distribute.get_strategy(), model, "eager")
    losses, weights = train(strategy, model, mode)
    assert len(losses) == STEPS
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5, atol=1e-5)
    for got, want in zip(weights, expected_weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert expected_losses[-1] < expected_losses[0]  # it trains


@pytest.mark.parametrize("count", [1, 2, 4])
def test_fewer_devices_train_the_same(count):
    expected_losses, expected_weights = train(ag.distribute.get_strategy(), Linear, "eager")
    losses, weights = train(mirrored(count), Linear, "function")
    np.testing.assert_allclose(losses, expected_losses, rtol=1e-5, atol=1e-5)
    for got, want in zip(weights, expected_weights):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_the_default_strategy_matches_numpy():
    # The oracle itself, checked against plain numpy gradient descent.
    from tests.distribute.programs import GLOBAL_BATCH, data

    x, y = data()
    losses, (w, b) = train(ag.distribute.get_strategy(), Linear, "eager", x, y)
    w_np, b_np = np.zeros((3, 1), np.float32), np.zeros(1, np.float32)
    for step in range(STEPS):
        rows = slice(step * GLOBAL_BATCH, (step + 1) * GLOBAL_BATCH)
        xb, yb = x[rows], y[rows]
        error = xb @ w_np + b_np - yb
        np.testing.assert_allclose(losses[step], np.mean(np.sum(error ** 2, axis=1)), rtol=1e-5)
        w_np = w_np - 0.1 * 2 * xb.T @ error / GLOBAL_BATCH
        b_np = b_np - 0.1 * 2 * error.sum(0) / GLOBAL_BATCH
    np.testing.assert_allclose(w, w_np, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b, b_np, rtol=1e-5, atol=1e-6)
