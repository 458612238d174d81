"""Every gradient rule against central finite differences, in float64 on seeded random
inputs, eagerly (GradientTape), in a graph (gradients() + Session) and in a graph whose
placeholders have unknown dims (the rules' run-time shape paths)."""

import zlib

import autograph_py.runtime.gradients  # noqa: F401  (registers the rules)
import numpy as np
import pytest
from autograph_py.runtime import registry
from autograph_py.runtime.gradients.checker import (
    graph_gradients,
    numerical_gradients,
    tape_gradients,
)
from autograph_py.runtime.gradients.grad_ops import broadcast_like, unbroadcast
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.ops import array_ops as a
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops import nn_ops as nn
from autograph_py.runtime.ops import reduction_ops as r
from autograph_py.runtime.ops.core import constant, stop_gradient
from autograph_py.runtime.ops.creation_ops import fill
from autograph_py.runtime.ops.indexing import strided_slice


def normal(*shape):
    return ("normal", shape)


def positive(*shape):
    return ("positive", shape)


def away_from_zero(*shape):
    return ("away", shape)


def _draw(rng, kind, shape):
    if kind == "normal":
        return rng.normal(size=shape)
    if kind == "positive":
        return rng.uniform(0.5, 2.0, size=shape)
    return rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.5, 2.0, size=shape)


# name -> (fn, input kinds, options). Shapes mix broadcasting and batch dims on purpose.
CASES = {
    "Add": (m.add, [normal(3, 4), normal(4)], {}),
    "Sub": (m.subtract, [normal(2, 1, 3), normal(4, 1)], {}),
    "Mul": (m.multiply, [normal(3, 1), normal(1, 4)], {}),
    "RealDiv": (m.divide, [normal(2, 3), away_from_zero(3)], {}),
    "FloorMod": (m.mod, [positive(3, 2), positive(2)], {}),
    "Pow": (m.pow_, [positive(2, 3), normal(3)], {}),
    "Pow of a negative base": (lambda x: m.pow_(m.negative(x), 3.0), [positive(4)], {}),
    "Maximum": (m.maximum, [normal(3, 4), normal(4)], {}),
    "Minimum": (m.minimum, [normal(3, 4), normal(3, 1)], {}),
    "Neg": (m.negative, [normal(3)], {}),
    "Abs": (m.abs_, [away_from_zero(2, 3)], {}),
    "Square": (m.square, [normal(2, 3)], {}),
    "Sqrt": (m.sqrt, [positive(4)], {}),
    "Exp": (m.exp, [normal(4)], {}),
    "Log": (m.log, [positive(4)], {}),
    "Tanh": (m.tanh, [normal(4)], {}),
    "Sigmoid": (m.sigmoid, [normal(4)], {}),
    "MatMul": (m.matmul, [normal(2, 3), normal(3, 4)], {}),
    "MatMul batched and broadcast": (m.matmul, [normal(2, 2, 3), normal(3, 4)], {}),
    "Relu": (nn.relu, [away_from_zero(3, 4)], {}),
    "Softmax": (nn.softmax, [normal(2, 5)], {}),
    "Softmax axis 0": (lambda x: nn.softmax(x, axis=0), [normal(3, 2)], {}),
    "Conv2D VALID": (lambda x, w: nn.conv2d(x, w, 1, "VALID"),
                     [normal(2, 5, 4, 2), normal(3, 2, 2, 3)], {}),
    "Conv2D SAME strided": (lambda x, w: nn.conv2d(x, w, 2, "SAME"),
                            [normal(1, 5, 6, 2), normal(3, 3, 2, 2)], {}),
    "Reshape": (lambda x: a.reshape(x, [3, -1]), [normal(2, 3, 2)], {"dynamic": False}),
    "Reshape to a dynamic shape": (lambda x, y: a.reshape(x, a.shape(y)),
                                   [normal(6), normal(2, 3)], {}),
    "Transpose": (lambda x: a.transpose(x, [2, 0, 1]), [normal(2, 3, 4)], {}),
    "Transpose reversed": (a.transpose, [normal(2, 3)], {}),
    "ExpandDims": (lambda x: a.expand_dims(x, -1), [normal(2, 3)], {}),
    "Squeeze": (lambda x: a.squeeze(x, 1), [normal(3, 1, 2)], {"dynamic": False}),
    "ConcatV2": (lambda x, y: a.concat([x, y, x], axis=1), [normal(2, 3), normal(2, 1)], {}),
    "ConcatV2 negative axis": (lambda x, y: a.concat([x, y], axis=-2),
                               [normal(1, 2), normal(3, 2)], {}),
    "Pack": (lambda x, y: a.stack([x, y, x], axis=1), [normal(2, 3), normal(2, 3)], {}),
    "Unpack": (lambda x: m.add(a.unstack(x, axis=1)[0], m.square(a.unstack(x, axis=1)[2])),
               [normal(2, 3)], {"dynamic": False}),
    "GatherV2": (lambda x: a.gather(x, [2, 0, 2, 1], axis=1), [normal(2, 3)], {}),
    "GatherV2 nd indices": (lambda x: a.gather(x, [[0, 1], [1, 1]]), [normal(3, 2)], {}),
    "StridedSlice": (lambda x: strided_slice(x, (slice(1, None), slice(None, None, -2))),
                     [normal(3, 4)], {}),
    "StridedSlice int and newaxis": (lambda x: strided_slice(x, (-1, None, Ellipsis)),
                                     [normal(3, 4)], {}),
    "StridedSlice fancy": (lambda x: strided_slice(x, (slice(None), [0, 0, 3])),
                           [normal(2, 4)], {}),
    "Cast": (lambda x: a.cast(m.multiply(a.cast(x, "float32"), 1.0), "float64"),
             [normal(3)], {"delta": 1e-2, "tolerance": 1e-3}),
    "SelectV2": (lambda c, x, y: a.where(m.greater(c, 0), x, y),
                 [normal(3, 4), normal(4), normal(3, 1)], {}),
    "Fill": (lambda x: fill([2, 3], x), [normal()], {"dynamic": False}),
    "Identity": (lambda x: m.multiply(a.cast(x, "float64"), 2.0), [normal(3)], {}),
    "Sum": (lambda x: r.reduce_sum(x, axis=1), [normal(2, 3, 2)], {}),
    "Sum all keepdims": (lambda x: r.reduce_sum(x, keepdims=True), [normal(2, 3)], {}),
    "Mean": (lambda x: r.reduce_mean(x, axis=[0, 2]), [normal(2, 3, 2)], {}),
    "Max": (lambda x: r.reduce_max(x, axis=-1), [normal(3, 4)], {}),
    "Max with ties": (lambda x: r.reduce_max(m.minimum(x, 0.0), axis=0), [positive(3, 2)],
                      {}),
    "Min": (lambda x: r.reduce_min(x, axis=0, keepdims=True), [normal(3, 4)], {}),
    "Prod": (lambda x: r.reduce_prod(x, axis=1), [away_from_zero(2, 3)], {}),
    "SumToShapeOf / BroadcastToShapeOf": (
        lambda x, y: m.multiply(unbroadcast(broadcast_like(x, y), x), 3.0),
        [normal(1, 3), normal(2, 3)], {}),
}
MODES = ["tape", "graph", "graph with unknown dims"]


def _inputs(name, kinds):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng, [_draw(rng, kind, shape) for kind, shape in kinds]


def _computed(fn, arrays, grad_y, mode):
    if mode == "tape":
        return tape_gradients(fn, arrays, grad_y)
    return graph_gradients(fn, arrays, grad_y, known_shapes=mode == "graph")


def _case(name, mode):
    """(fn, inputs, output weights, options, rng) of a case."""
    fn, kinds, options = CASES[name]
    rng, arrays = _inputs(name, kinds)
    grad_y = rng.normal(size=fn(*map(constant, arrays)).shape.dims)
    return fn, arrays, grad_y, options, rng


def _applicable(names):
    """(name, mode) pairs; ops that need static shapes to build skip the unknown-dims mode."""
    return [(name, mode) for name in names for mode in MODES
            if mode != "graph with unknown dims" or CASES[name][2].get("dynamic", True)]


@pytest.mark.parametrize("name, mode", _applicable(CASES))
def test_rule_matches_finite_differences(name, mode):
    fn, arrays, grad_y, options, _ = _case(name, mode)
    expected = numerical_gradients(fn, arrays, grad_y, options.get("delta", 1e-6))
    computed = _computed(fn, arrays, grad_y, mode)
    for i, (want, got) in enumerate(zip(expected, computed)):
        if got is None:  # no gradient flows: the function must not depend on the input
            np.testing.assert_allclose(want, 0, atol=1e-9, err_msg=f"input {i}")
            continue
        np.testing.assert_allclose(got, want, rtol=options.get("tolerance", 1e-5),
                                   atol=options.get("tolerance", 1e-6),
                                   err_msg=f"input {i}")


def _first_order(fn, grad_y, direction):
    """x -> sum(d(sum(fn(x) * grad_y))/dx * direction): its gradient is a Hessian-vector
    product, computed by differentiating the gradient ops the inner tape made."""

    def directional(*xs):
        with GradientTape() as tape:
            tape.watch(xs)
            y = fn(*xs)
        grads = tape.gradient(y, list(xs), output_gradients=constant(grad_y))
        total = constant(0.0, xs[0].dtype)
        for g, v in zip(grads, direction):
            if g is not None:
                total = m.add(total, r.reduce_sum(m.multiply(g, constant(v))))
        return total

    return directional


@pytest.mark.parametrize("name, mode", _applicable(CASES))
def test_second_derivatives_match_finite_differences(name, mode):
    fn, arrays, grad_y, _, rng = _case(name, mode)
    direction = [rng.normal(size=x.shape) for x in arrays]
    check = _first_order(fn, grad_y, direction)
    expected = numerical_gradients(check, arrays, 1.0)
    for i, (want, got) in enumerate(zip(expected, _computed(check, arrays, 1.0, mode))):
        got = np.zeros_like(want) if got is None else got
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6, err_msg=f"input {i}")


def test_stop_gradient_blocks_the_gradient():
    fn = lambda x, y: m.add(m.multiply(stop_gradient(x), y), y)  # noqa: E731
    arrays = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]
    for mode in MODES:
        gx, gy = _computed(fn, arrays, np.ones(2), mode)
        assert gx is None
        np.testing.assert_allclose(gy, [2.0, 3.0])


# Ops the issue lists as differentiable, by registry name: each must have a rule.
DIFFERENTIABLE = [
    "Add", "Sub", "Mul", "RealDiv", "Neg", "Abs", "Square", "Sqrt", "Exp", "Log", "Tanh",
    "Sigmoid", "Pow", "Maximum", "Minimum", "MatMul", "Relu", "Softmax", "Conv2D", "Sum",
    "Mean", "Max", "Min", "Prod", "Reshape", "Transpose", "ExpandDims", "Squeeze",
    "ConcatV2", "Pack", "Unpack", "GatherV2", "StridedSlice", "SelectV2", "Cast",
    "Identity", "FloorMod", "Fill", "If", "While", "StatefulIf", "Call",
]
NOT_DIFFERENTIABLE = ["Less", "Greater", "Equal", "LogicalAnd", "FloorDiv", "ArgMax", "Shape",
                      "StopGradient", "ReadVariable", "Range", "ZerosLike"]


def test_every_differentiable_op_has_a_rule():
    missing = [name for name in DIFFERENTIABLE if registry.gradient(name) is None]
    assert not missing
    assert all(registry.gradient(name) is None for name in NOT_DIFFERENTIABLE)


def test_integer_inputs_get_no_gradient_and_no_error():
    fn = lambda x, i: m.multiply(x, a.cast(m.multiply(i, 2), "float64"))  # noqa: E731
    arrays = [np.array([1.0, 2.0]), np.array([3, 4], dtype=np.int32)]
    for mode in MODES:
        gx, gi = _computed(fn, arrays, np.ones(2), mode)
        np.testing.assert_allclose(gx, [6.0, 8.0])
        assert gi is None
