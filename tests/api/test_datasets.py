"""ag.data datasets: each transformation against a plain-Python oracle, `for x in ds` in
converted code in every mode (Python values where meaningful, eager tensors, a Session
graph, ag.function) with break/continue/return, iter/next/StopIteration as in TF 2,
reduce with converted functions, and ag.function retracing keyed on element_spec."""

import numpy as np
import pytest
from autograph_py.runtime import nest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode
from tests.trace_time import append_warning, expect_trace_time

Dataset = ag.data.Dataset
VALUES = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, 6.0]


def numbers():
    return Dataset.from_tensor_slices(np.array(VALUES, np.float32))


def listed(ds):
    return [nest.map_structure(lambda v: np.asarray(v).tolist(), x)
            for x in ds.as_numpy_iterator()]


# --- the transformations, eagerly ------------------------------------------------------


@pytest.mark.parametrize("make, expected", [
    (lambda: Dataset.range(5), list(range(5))),
    (lambda: Dataset.range(2, 11, 3), list(range(2, 11, 3))),
    (lambda: Dataset.range(5, 0, -2), list(range(5, 0, -2))),
    (lambda: Dataset.range(6).map(lambda x: x * x), [x * x for x in range(6)]),
    (lambda: Dataset.range(10).filter(lambda x: x % 3 == 1), [x for x in range(10) if x % 3 == 1]),
    (lambda: Dataset.range(7).batch(3), [[0, 1, 2], [3, 4, 5], [6]]),
    (lambda: Dataset.range(7).batch(3, drop_remainder=True), [[0, 1, 2], [3, 4, 5]]),
    (lambda: Dataset.range(5).map(lambda x: 2 * x).batch(2), [[0, 2], [4, 6], [8]]),
    (lambda: Dataset.range(3).repeat(2), [0, 1, 2, 0, 1, 2]),
    (lambda: Dataset.range(3).repeat().take(7), [0, 1, 2, 0, 1, 2, 0]),
    (lambda: Dataset.range(6).skip(4), [4, 5]),
    (lambda: Dataset.range(6).take(-1), list(range(6))),
    (lambda: Dataset.range(3).enumerate(10), [(10, 0), (11, 1), (12, 2)]),
    (lambda: Dataset.zip((Dataset.range(3), Dataset.range(5, 9))), [(0, 5), (1, 6), (2, 7)]),
    (lambda: Dataset.from_tensors([1, 2]).repeat(2), [[1, 2], [1, 2]]),
    (lambda: Dataset.range(4).prefetch(2), list(range(4))),
    (lambda: Dataset.range(10).filter(lambda x: x > 2).batch(4).map(lambda b: b[0]), [3, 7]),
])
def test_transformations_against_python(make, expected):
    assert listed(make()) == expected


def test_slices_of_tuples_and_dicts():
    ds = Dataset.from_tensor_slices({"a": [1.0, 2.0], "b": ([[1, 2], [3, 4]], [5, 6])})
    assert listed(ds) == [{"a": 1.0, "b": ([1, 2], 5)}, {"a": 2.0, "b": ([3, 4], 6)}]
    spec = ds.element_spec
    assert (spec["a"].shape, spec["a"].dtype) == ((), ag.float32)
    assert (spec["b"][0].shape, spec["b"][0].dtype) == ((2,), ag.int32)
    xs, ys = np.arange(3.0), np.arange(3.0) + 1.0
    pairs = Dataset.from_tensor_slices((xs, ys)).map(lambda x, y: x * y)
    assert listed(pairs) == (xs * ys).tolist()


def test_shuffle_is_a_seeded_permutation():
    def order(buffer_size, seed):
        return listed(Dataset.range(20).shuffle(buffer_size, seed=seed))

    assert sorted(order(5, 7)) == list(range(20))
    assert order(5, 7) == order(5, 7)
    assert order(20, 1) != order(20, 2)
    assert order(1, 3) == list(range(20))  # a buffer of one keeps the order
    assert all(x < 5 + i for i, x in enumerate(order(5, 4)))  # never past the buffer


@ag.function
def _read_in_a_graph(ds):
    out = ag.TensorArray(ag.int64, size=0, dynamic_size=True)
    i = 0
    for x in ds:
        out = out.write(i, x)
        i += 1
    return out.stack()


@pytest.mark.parametrize("read", [listed, lambda ds: _read_in_a_graph(ds).numpy().tolist()],
                         ids=["eager", "function"])
def test_unseeded_shuffles_follow_the_global_seed_as_in_tensorflow(read):
    # Each reading (an epoch) draws a new order; set_seed makes the sequence repeat.
    ds = Dataset.range(50).shuffle(50)
    try:
        ag.random.set_seed(11)
        first = [read(ds) for _ in range(2)]
        ag.random.set_seed(11)
        again = [read(ds) for _ in range(2)]
    finally:
        ag.random.set_seed(None)
    assert first == again
    assert first[0] != first[1] and sorted(first[0]) == sorted(first[1]) == list(range(50))


def test_cardinality_as_tensorflow_reports_it():
    assert Dataset.range(10).batch(3).cardinality().numpy() == 4
    assert Dataset.range(10).repeat().cardinality().numpy() == ag.data.INFINITE_CARDINALITY
    assert Dataset.range(10).filter(lambda x: x > 2).cardinality().numpy() == \
        ag.data.UNKNOWN_CARDINALITY
    assert Dataset.range(10).repeat().take(4).cardinality().numpy() == 4
    assert len(Dataset.range(7).skip(2)) == 5


def test_reduce_and_errors():
    total = Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x)
    assert total.numpy() == sum(range(5))
    with pytest.raises(ValueError, match="filter.. over an endless dataset"):
        list(Dataset.range(3).repeat().filter(lambda x: x > 0))
    with pytest.raises(ValueError, match="batch_size must be a positive int"):
        Dataset.range(3).batch(0)
    with pytest.raises(TypeError, match="predicate must return a scalar bool"):
        list(Dataset.range(3).filter(lambda x: x))


# --- for x in ds in converted code, every mode ------------------------------------------


def sum_until_big(ds):
    total = 0.0
    for x in ds:
        if x > 8.0:
            break
        if x < 0.0:
            continue
        total += x
    return total


def first_negative(ds):
    for x in ds:
        if x < 0.0:
            return x * 10.0
    return 0.0


def batch_means(ds):
    means = ag.TensorArray(ag.float32, size=0, dynamic_size=True)
    i = 0
    for batch in ds.filter(lambda x: x > 0.0).map(lambda x: x * 2.0).batch(2):
        means = means.write(i, ag.reduce_mean(batch))
        i += 1
    return means.stack()


def oracle_batch_means(values):
    kept = [2.0 * x for x in values if x > 0.0]
    return [float(np.mean(kept[i:i + 2])) for i in range(0, len(kept), 2)]


# The loops' own source, run as plain Python over a list, is their oracle.
LOOPS = [(sum_until_big, sum_until_big), (first_negative, first_negative),
         (batch_means, oracle_batch_means)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, oracle", LOOPS, ids=[f.__name__ for f, _ in LOOPS])
def test_a_loop_over_a_dataset_in_every_mode(mode, fn, oracle):
    assert_same(np.asarray(oracle(VALUES)), run_mode(mode, fn, (numbers(),)))


def test_a_staged_loop_is_one_while_op():
    graph = ag.function(sum_until_big).get_concrete_function(numbers()).graph
    assert [op.type for op in graph.get_operations()].count("While") == 1


def resume(ds):
    it = iter(ds)
    first = next(it)
    second = next(it)
    rest = 0.0
    for x in it:
        rest += x
    return first, second, rest


def with_default(ds):
    it = iter(ds.take(2))
    a = next(it, -1.0)
    b = next(it, -1.0)
    c = next(it, -1.0)
    return a, b, c


@pytest.mark.parametrize("mode", MODES)
def test_iter_next_and_resuming(mode):
    assert_same((VALUES[0], VALUES[1], sum(VALUES[2:])), run_mode(mode, resume, (numbers(),)))
    assert_same((VALUES[0], VALUES[1], -1.0), run_mode(mode, with_default, (numbers(),)))


def count_with_stop_iteration(x):
    it = iter(Dataset.from_tensor_slices(x))
    count = 0
    while True:
        try:
            next(it)
        except StopIteration:
            break
        count += 1
    return count


@pytest.mark.parametrize("mode", MODES)
def test_catching_stop_iteration(mode):
    assert run_mode(mode, count_with_stop_iteration, ([1.0, 2.0, 3.0],)) == 3


def clipped_sum(ds):
    def add_clipped(total, x):
        if x > 3.0:
            x = 3.0
        return total + x

    return ds.reduce(0.0, add_clipped)


@pytest.mark.parametrize("mode", MODES)
def test_reduce_converts_its_function(mode):
    assert_same(sum(min(v, 3.0) for v in VALUES), run_mode(mode, clipped_sum, (numbers(),)))


# --- ag.function arguments and captures ---------------------------------------------------


def test_traces_are_keyed_on_the_pipeline_and_element_spec_not_the_length():
    traces = []

    @ag.function
    def total(ds):
        traces.append(1)
        s = 0.0
        for x in ds:
            s += ag.reduce_sum(x)
        return s

    with expect_trace_time(append_warning(total, "traces")):  # counts traces on purpose
        for n in (3, 5):
            values = np.arange(n, dtype=np.float32)
            assert total(Dataset.from_tensor_slices(values)).numpy() == values.sum()
    assert len(traces) == 1
    total(Dataset.from_tensor_slices(np.arange(3, dtype=np.float32)).map(lambda x: x + 1.0))
    assert total(Dataset.from_tensor_slices(np.ones((2, 3), np.float32))).numpy() == 6.0
    assert len(traces) == 3


def test_a_captured_dataset():
    ds = numbers().map(lambda x: x * x)

    @ag.function
    def total():
        s = 0.0
        for x in ds:
            s += x
        return s

    assert total().numpy() == pytest.approx(sum(v * v for v in VALUES))


def next_in_a_staged_loop(ds):
    it = iter(ds)
    total = 0.0
    i = ag.constant(0)
    while i < 2:
        total += next(it)
        i += 1
    return total


def test_next_inside_a_staged_loop_is_refused_not_wrong():
    with pytest.raises(NotImplementedError, match="iterate it with `for x in it:`"):
        ag.function(next_in_a_staged_loop)(numbers())


def test_batch_element_spec_knows_the_rows_only_without_a_remainder():
    rows = Dataset.from_tensor_slices(np.ones((10, 4), np.float32))
    assert rows.batch(3).element_spec.shape == (None, 4)
    assert rows.batch(3, drop_remainder=True).element_spec.shape == (3, 4)
    assert [b.shape for b in rows.batch(3, drop_remainder=True)] == [(3, 4)] * 3


def indexed_sum(ds):
    total = 0.0
    for i, (x, y) in enumerate(zip(ds, ds.skip(1))):
        total += ag.cast(i, ag.float32) * x - y
    return total


@pytest.mark.parametrize("mode", MODES)
def test_enumerate_and_zip_of_datasets_stage(mode):
    expected = sum(i * x - y for i, (x, y) in enumerate(zip(VALUES, VALUES[1:])))
    assert_same(expected, run_mode(mode, indexed_sum, (numbers(),)))


def test_an_unconverted_python_loop_over_a_dataset_argument_refuses_to_hang():
    @ag.function(autograph=False)
    def total(ds):
        return sum(x for x in ds)

    with pytest.raises(TypeError, match="would never end"):
        total(numbers())
