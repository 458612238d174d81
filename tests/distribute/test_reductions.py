"""`strategy.reduce`, `all_reduce`, replica ids and per-replica values on 8 devices,
against numpy on the same shards (TensorFlow's semantics)."""

import numpy as np
import pytest

import autograph_py as ag
from tests.distribute.devices import mirrored

R = 8


@pytest.fixture(scope="module")
def strategy():
    return mirrored(R)


def batch(rows=16, cols=3):
    return np.arange(rows * cols, dtype=np.float32).reshape(rows, cols) / 7


def distributed(strategy, x):
    return next(iter(strategy.experimental_distribute_dataset(
        ag.data.Dataset.from_tensor_slices(x).batch(len(x)))))


def test_each_replica_gets_its_rows_in_order(strategy):
    x = batch()
    shards = strategy.experimental_local_results(distributed(strategy, x))
    assert len(shards) == R
    for i, shard in enumerate(shards):
        np.testing.assert_array_equal(shard.numpy(), x[i * 2:(i + 1) * 2])


@pytest.mark.parametrize("op", ["SUM", "MEAN"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_reduce_over_replicas_and_along_an_axis(strategy, op, axis):
    x = batch()
    per_replica = strategy.run(lambda v: v * 2.0, args=(distributed(strategy, x),))
    shards = (x * 2).reshape(R, 2, 3)
    numpy_op = np.sum if op == "SUM" else np.mean
    expected = numpy_op(shards, axis=0 if axis is None else (0, axis % 2 + 1))
    got = strategy.reduce(getattr(ag.distribute.ReduceOp, op), per_replica, axis=axis)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_all_reduce_replica_id_and_local_results(strategy):
    x = batch()

    def fn(v):
        context = ag.distribute.get_replica_context()
        local = ag.reduce_sum(v)
        return (context.all_reduce(ag.distribute.ReduceOp.SUM, local),
                context.all_reduce("MEAN", {"m": local}), context.replica_id_in_sync_group,
                context.num_replicas_in_sync)

    total, mean, ids, count = strategy.run(fn, args=(distributed(strategy, x),))
    sums = x.reshape(R, -1).sum(axis=1)
    assert count == R  # a Python value comes back as it is
    np.testing.assert_allclose(total.stacked.numpy(), np.full(R, sums.sum()), rtol=1e-6)
    np.testing.assert_allclose(mean["m"].stacked.numpy(), np.full(R, sums.mean()), rtol=1e-6)
    np.testing.assert_array_equal(ids.stacked.numpy(), np.arange(R))
    assert [t.numpy() for t in strategy.experimental_local_results(ids)] == list(range(R))
    np.testing.assert_allclose(strategy.gather(distributed(strategy, x), axis=0).numpy(), x)


def test_a_tensor_argument_is_given_whole_to_each_replica(strategy):
    x, scale = batch(), ag.constant([1.0, 10.0, 100.0])
    got = strategy.run(lambda v, s: ag.reduce_sum(v * s), args=(distributed(strategy, x), scale))
    np.testing.assert_allclose(got.stacked.numpy(),
                               (x * [1, 10, 100]).reshape(R, -1).sum(axis=1), rtol=1e-5)


def test_reduce_of_a_value_that_is_not_per_replica(strategy):
    value = ag.constant([1.0, 3.0])
    assert strategy.reduce("MEAN", value, axis=None) is not None
    np.testing.assert_allclose(strategy.reduce("MEAN", value, axis=None).numpy(), [1, 3])
    with pytest.raises(ValueError, match="nothing to sum"):
        strategy.reduce("SUM", value, axis=None)
    with pytest.raises(ValueError, match="ReduceOp.SUM or MEAN"):
        strategy.reduce("MAX", value, axis=None)


def test_for_over_a_distributed_dataset_inside_a_function(strategy):
    # TensorFlow's reference test on distributed datasets: iterate inside tf.function,
    # run a replica function per batch and reduce.
    x = np.arange(64, dtype=np.float32)
    dist = strategy.experimental_distribute_dataset(
        ag.data.Dataset.from_tensor_slices(x).batch(16))

    @ag.function
    def total(batches):
        result = 0.0
        for per_replica in batches:
            result += strategy.reduce("SUM", strategy.run(ag.reduce_sum, args=(per_replica,)),
                                      axis=None)
        return result

    @ag.function
    def mean_of_means(batches):
        means = ag.TensorArray(ag.float32, size=0, dynamic_size=True)
        i = 0
        for per_replica in batches:
            means = means.write(i, strategy.reduce("MEAN", per_replica, axis=0))
            i += 1
        return means.stack()

    assert total(dist).numpy() == x.sum()
    np.testing.assert_allclose(mean_of_means(dist).numpy(), x.reshape(4, 16).mean(axis=1))
    eager = [strategy.reduce("SUM", b, axis=0).numpy() for b in dist]  # eagerly too
    np.testing.assert_allclose(eager, x.reshape(4, 16).sum(axis=1))


def test_replica_context_outside_run():
    assert ag.distribute.get_replica_context().num_replicas_in_sync == 1
    assert not ag.distribute.has_strategy()
    np.testing.assert_array_equal(
        ag.distribute.get_replica_context().all_reduce("SUM", ag.constant([2.0])).numpy(), [2])
    strategy = mirrored(2)
    with strategy.scope():
        assert ag.distribute.get_strategy() is strategy and ag.distribute.has_strategy()
        assert ag.distribute.get_replica_context() is None  # the cross-replica context
        assert ag.distribute.in_cross_replica_context()
    assert ag.distribute.get_strategy() is not strategy


@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_the_gradient_through_all_reduce_is_tensorflows(strategy, op):
    # TensorFlow's rule: the gradient of an all-reduce is the same all-reduce of the
    # incoming gradient. So replica r's gradient with respect to its own copy of w is the
    # derivative of the sum of all replicas' losses (each sum(all_reduce(w * x_r) ** 2)),
    # for an all-sum and an all-mean alike: checked by finite differences in numpy.
    x = batch()
    w = ag.Variable(0.5)

    def fn(v):
        context = ag.distribute.get_replica_context()
        with ag.GradientTape() as tape:
            loss = ag.reduce_sum(context.all_reduce(op, w * v) ** 2)
        return tape.gradient(loss, w)

    grads = strategy.run(fn, args=(distributed(strategy, x),)).stacked.numpy()
    shards = x.reshape(R, 2, 3).astype(np.float64)

    def total(ws):  # every replica's loss, from every replica's own copy of w
        reduced = (ws[:, None, None] * shards).sum(axis=0)
        reduced = reduced if op == "SUM" else reduced / R
        return R * (reduced ** 2).sum()  # R replicas, one loss each, all equal

    eps = 1e-4
    expected = []
    for r in range(R):
        up, down = np.full(R, 0.5), np.full(R, 0.5)
        up[r] += eps
        down[r] -= eps
        expected.append((total(up) - total(down)) / (2 * eps))
    np.testing.assert_allclose(grads, expected, rtol=1e-3)
