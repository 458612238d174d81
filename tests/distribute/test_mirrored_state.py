"""Mirrored Variables, uneven batches, loops in a replica function, and a strategy
without JAX."""

import subprocess
import sys

import numpy as np
import pytest
from autograph_py.runtime.xla.table import LoweringError

import autograph_py as ag
from tests.distribute.devices import mirrored

R = 8


@pytest.fixture(scope="module")
def strategy():
    return mirrored(R)


def split(strategy, x, batch):
    return strategy.experimental_distribute_dataset(
        ag.data.Dataset.from_tensor_slices(x).batch(batch))


def test_assignments_of_all_reduced_values_keep_one_value(strategy):
    with strategy.scope():
        v = ag.Variable(10.0)
        count = ag.Variable(0)
    x = np.arange(16, dtype=np.float32)

    def fn(rows):
        context = ag.distribute.get_replica_context()
        v.assign_sub(context.all_reduce("SUM", ag.reduce_sum(rows)))
        count.assign_add(1)  # the same on every replica: one increment
        return v.read_value()

    for batch in split(strategy, x, 16):
        result = strategy.run(fn, args=(batch,))
    assert v.numpy() == 10.0 - x.sum() and count.numpy() == 1
    np.testing.assert_array_equal(result.stacked.numpy(), np.full(R, 10.0 - x.sum()))


def test_assigning_a_value_that_differs_between_replicas_is_refused(strategy):
    v = ag.Variable(0.0)
    (batch,) = split(strategy, np.arange(16, dtype=np.float32), 16)
    with pytest.raises(LoweringError, match="Variable '.*' is mirrored.*all_reduce"):
        strategy.run(lambda rows: v.assign(ag.reduce_sum(rows)), args=(batch,))
    assert v.numpy() == 0.0


@pytest.mark.parametrize("in_function", [False, True])
def test_an_uneven_batch_is_refused_with_the_rule(strategy, in_function):
    dist = split(strategy, np.arange(20, dtype=np.float32), 16)  # batches of 16, then 4

    def consume(batches):
        total = 0.0
        for b in batches:
            total += strategy.reduce("SUM", b, axis=0)
        return total

    run = ag.function(consume) if in_function else consume
    with pytest.raises(ag.errors.InvalidArgumentError,
                       match="4 rows does not split evenly over 8 replicas.*drop_remainder"
                       if not in_function else "does not split evenly over 8 replicas"):
        run(dist)


def test_drop_remainder_makes_every_batch_even(strategy):
    x = np.arange(20, dtype=np.float32)
    dist = strategy.experimental_distribute_dataset(
        ag.data.Dataset.from_tensor_slices(x).batch(16, drop_remainder=True))
    assert [strategy.reduce("SUM", b, axis=0).numpy() for b in dist] == [x[:16].sum()]


def test_a_while_loop_in_the_replica_function(strategy):
    # The mesh's axis type is Auto: an Explicit mesh (jax.make_mesh's default) refuses
    # inputs without a sharding of their own and breaks vmap of a while_loop.
    def halvings(rows):
        n = ag.reduce_sum(rows)
        steps = 0
        while n > 1.0:
            n = n / 2.0
            steps += 1
        return steps

    x = np.arange(16, dtype=np.float32) * 10
    (batch,) = split(strategy, x, 16)
    got = strategy.run(halvings, args=(batch,)).stacked.numpy()
    expected = [int(np.ceil(np.log2(s))) if s > 1 else 0 for s in x.reshape(R, 2).sum(1)]
    np.testing.assert_array_equal(got, expected)


def test_devices_by_name_and_count():
    strategy = ag.distribute.MirroredStrategy(["cpu:0", "/device:CPU:1"])
    assert strategy.num_replicas_in_sync == 2
    with pytest.raises(ValueError, match="no JAX device 'gpu:7'"):
        ag.distribute.MirroredStrategy(["gpu:7"])


def test_without_jax_a_strategy_names_the_extra():
    code = ("import sys; sys.modules['jax'] = None\n"
            "import autograph_py as ag\n"
            "s = ag.distribute.get_strategy()\n"  # the default strategy needs no JAX
            "assert s.run(lambda: 2) == 2 and s.num_replicas_in_sync == 1\n"
            "try:\n"
            "    ag.distribute.MirroredStrategy()\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert "MirroredStrategy runs on JAX's devices" in result.stdout, result.stderr
    assert "[xla]" in result.stdout
