"""Helpers for the operator tests: run a function in the three modes of DESIGN.md §7.

`in_three_modes(fn, *args)` returns fn's results with the arguments as Python values, as
eager tensors and as placeholders (fed the same values, with unknown dims so lengths are
only known at run time), all converted to numpy / Python scalars for comparison.
"""

import numpy as np
from autograph_py.runtime import dtypes, nest
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.session import Session
from autograph_py.runtime.tensor import EagerTensor, to_array


def as_plain(value):
    value = value.numpy() if isinstance(value, EagerTensor) else value
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def fn_results(fn, *args):
    return nest.map_structure(as_plain, fn(*args))


def staged(fn, *args):
    """fn on placeholders, run once in a Session fed with `args`."""
    with Graph().as_default() as graph:
        arrays = [to_array(a) for a in args]
        inputs = [placeholder(dtypes.as_dtype(a.dtype), [None] * a.ndim) for a in arrays]
        out = fn(*inputs)
    with Session(graph) as session:
        return nest.map_structure(as_plain, session.run(out, dict(zip(inputs, arrays))))


def in_three_modes(fn, *args):
    return (fn_results(fn, *args), fn_results(fn, *[constant(a) for a in args]),
            staged(fn, *args))


def assert_three_modes(fn, oracle, *args):
    """fn agrees with the plain-Python `oracle` in every mode."""
    expected = oracle(*args)
    for mode, result in zip(("python", "eager", "staged"), in_three_modes(fn, *args)):
        np.testing.assert_allclose(np.asarray(result, dtype=float),
                                   np.asarray(expected, dtype=float), err_msg=mode)
