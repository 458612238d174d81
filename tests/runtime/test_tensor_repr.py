"""Tensor repr as in the seed article."""

import autograph_py.runtime  # noqa: F401
import numpy as np
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph


def test_eager_repr_matches_the_seed():
    z = ag.matmul(ag.ones((2, 2), dtype=ag.dtypes.float32),
                  ag.constant([[1, 2], [3, 4]], dtype=ag.dtypes.float32))
    assert repr(z) == "Tensor(\n[[4. 6.]\n [4. 6.]], shape=(2, 2), dtype=float32)"
    assert str(z.numpy()) == "[[4. 6.]\n [4. 6.]]"
    assert repr(ag.constant([[1.0]]) * 4) == "Tensor([[4.]], shape=(1, 1), dtype=float32)"


def test_scalar_and_vector_reprs():
    assert repr(ag.constant(1) + ag.constant(1)) == "Tensor(2, shape=(), dtype=int32)"
    assert repr(ag.constant(1.1) + ag.constant(1.1)) == "Tensor(2.2, shape=(), dtype=float32)"
    assert repr(ag.constant([1, 2]) * 2) == "Tensor([2 4], shape=(2,), dtype=int32)"
    assert repr(ag.constant(np.array([2.0], np.float32))) == \
        "Tensor([2.], shape=(1,), dtype=float32)"


def test_symbolic_repr():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [1, 2], name="x")
        assert repr(x) == 'Tensor("x:0", shape=(1, 2), dtype=float32)'
        assert repr(ag.add(x, 1.0)) == 'Tensor("Add:0", shape=(1, 2), dtype=float32)'

