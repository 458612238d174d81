"""ag.random: shapes, dtypes, ranges, seeding; stateful (new numbers every run)."""

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.session import Session


@pytest.fixture(autouse=True)
def _unseeded_afterwards():
    yield
    ag.random.set_seed(None)


@pytest.mark.parametrize("dtype", [ag.float32, ag.float64, ag.float16])
def test_uniform_shape_dtype_and_range(dtype):
    x = ag.random.uniform([100, 3], -2, 5, dtype=dtype)
    assert x.shape == (100, 3) and x.dtype is dtype
    assert x.numpy().min() >= -2 and x.numpy().max() < 5


def test_uniform_integers_need_maxval():
    x = ag.random.uniform([1000], 3, 7, dtype=ag.int32)
    assert x.dtype == ag.int32 and set(x.numpy().tolist()) == {3, 4, 5, 6}
    with pytest.raises(ValueError, match="maxval must be given"):
        ag.random.uniform([2], dtype=ag.int64)


def test_scalar_uniform_as_in_the_seed():
    value = ag.random.uniform([], 0, 1)
    assert value.shape == () and value.dtype == ag.float32 and 0 <= float(value) < 1


def test_normal_moments():
    x = ag.random.normal([20000], mean=3.0, stddev=2.0).numpy()
    assert x.dtype == np.float32
    assert abs(x.mean() - 3) < 0.1 and abs(x.std() - 2) < 0.1
    with pytest.raises(TypeError, match="RandomNormal.*floating-point.*int32"):
        ag.random.normal([2], dtype=ag.int32)


def test_set_seed_makes_the_sequence_reproducible():
    ag.random.set_seed(42)
    first = [ag.random.uniform([3]).numpy(), ag.random.normal([2], seed=7).numpy()]
    ag.random.set_seed(42)
    second = [ag.random.uniform([3]).numpy(), ag.random.normal([2], seed=7).numpy()]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(ag.random.uniform([3]).numpy(), first[0])


def test_each_graph_run_draws_new_numbers_and_dynamic_shapes_work():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [None, 2])
        noise = ag.random.uniform(ag.shape(x))
        assert noise.shape == (None, 2) and noise.op.stateful
        session = Session()
        a, b = (session.run(noise, {x: np.zeros((3, 2))}) for _ in range(2))
    assert a.shape == (3, 2) and not np.array_equal(a, b)
