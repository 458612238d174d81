"""Test support for ops: run an op eagerly and as a graph, and check both against an oracle.

Contract: `check_op(fn, arrays, oracle)` calls `fn` on eager tensors made from `arrays`
and compares with `oracle(*arrays)` (value, dtype, shape); then builds `fn` on
placeholders twice — with the arrays' exact shapes and with every dim unknown — checks
the inferred static shape and dtype against the real result (exact for the first,
compatible for the second, and for `data_dependent` output shapes), runs the graph in a
Session and requires the eager result.
Lists of outputs (unstack) are compared element by element. Returns the eager result.
"""

import numpy as np
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.session import Session
from autograph_py.runtime.tensor import EagerTensor


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def assert_same_array(actual, expected, rtol=1e-6, what="result"):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if actual.dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol, equal_nan=True,
                                   err_msg=what)
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def run_graph(fn, arrays, shapes):
    """Build `fn` on placeholders of `shapes`; return (symbolic outputs, fetched values)."""
    with Graph().as_default() as graph:
        inputs = [placeholder(constant(a).dtype, shape) for a, shape in zip(arrays, shapes)]
        outputs = fn(*inputs)
        values = Session(graph).run(_as_list(outputs), dict(zip(inputs, arrays)))
    return _as_list(outputs), values


def check_op(fn, arrays, oracle=None, rtol=1e-6, unknown_dims=True, data_dependent=False):
    arrays = [a if isinstance(a, np.ndarray) else constant(a).numpy() for a in arrays]
    eager = fn(*[EagerTensor(a) for a in arrays])
    eager_values = [t.numpy() for t in _as_list(eager)]
    if oracle is not None:
        for i, (value, expected) in enumerate(zip(eager_values, _as_list(oracle(*arrays)))):
            assert_same_array(value, expected, rtol, f"eager output {i} vs oracle")
    variants = [[a.shape for a in arrays]]
    if unknown_dims:
        variants.append([[None] * a.ndim for a in arrays])
    for shapes in variants:
        outputs, values = run_graph(fn, arrays, shapes)
        for i, (symbolic, value, expected) in enumerate(zip(outputs, values, eager_values)):
            assert_same_array(value, expected, rtol, f"graph output {i} (inputs {shapes})")
            assert symbolic.dtype.np_dtype == expected.dtype
            if shapes is variants[0] and not data_dependent:
                assert symbolic.shape == expected.shape, (symbolic.shape, expected.shape)
            else:
                assert symbolic.shape.is_compatible_with(expected.shape), (
                    symbolic.shape, expected.shape)
    return eager
