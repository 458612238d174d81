"""Tensor text: `str` as in the seed article, `repr` in TensorFlow's form."""

import autograph_py.runtime  # noqa: F401
import numpy as np
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.graph import Graph


def test_eager_str_matches_the_seed():
    z = ag.matmul(ag.ones((2, 2), dtype=ag.dtypes.float32),
                  ag.constant([[1, 2], [3, 4]], dtype=ag.dtypes.float32))
    assert str(z) == "Tensor(\n[[4. 6.]\n [4. 6.]], shape=(2, 2), dtype=float32)"
    assert str(z.numpy()) == "[[4. 6.]\n [4. 6.]]"
    assert str(ag.constant([[1.0]]) * 4) == "Tensor([[4.]], shape=(1, 1), dtype=float32)"


def test_scalar_and_vector_strs():
    assert str(ag.constant(1) + ag.constant(1)) == "Tensor(2, shape=(), dtype=int32)"
    assert str(ag.constant(1.1) + ag.constant(1.1)) == "Tensor(2.2, shape=(), dtype=float32)"
    assert str(ag.constant([1, 2]) * 2) == "Tensor([2 4], shape=(2,), dtype=int32)"
    assert str(ag.constant(np.array([2.0], np.float32))) == \
        "Tensor([2.], shape=(1,), dtype=float32)"


def test_eager_repr_is_tensorflows_form_with_numpys_repr():
    for value in (np.array([1.0, 2.0], np.float32), np.arange(4, dtype=np.int32).reshape(2, 2)):
        text = repr(value)
        text = "\n" + text if "\n" in text else text
        assert repr(ag.constant(value)) == \
            f"<Tensor: shape={value.shape}, dtype={value.dtype}, numpy={text}>"
    assert repr(ag.constant(2.5)) == f"<Tensor: shape=(), dtype=float32, numpy={np.float32(2.5)}>"
    assert repr([ag.constant(True)]) == "[<Tensor: shape=(), dtype=bool, numpy=True>]"


def test_symbolic_repr():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [1, 2], name="x")
        assert repr(x) == 'Tensor("x:0", shape=(1, 2), dtype=float32)'
        assert repr(ag.add(x, 1.0)) == 'Tensor("Add:0", shape=(1, 2), dtype=float32)'

