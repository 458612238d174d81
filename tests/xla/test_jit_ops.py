"""Ops the op-family tests (`check_modes`) do not reach, compiled: each function runs
through the numpy runtime (the oracle) and `ag.function(jit_compile=True)` on the same
tensors, which are traced inputs of the compiled function; results must agree (exact
for ints and bools, to rounding for floats), and so must gradients under a tape."""

import numpy as np
import pytest

import autograph_py as ag

rng = np.random.default_rng(3)
F = rng.normal(size=(3, 4)).astype(np.float32)
G = rng.normal(size=(3, 4)).astype(np.float32)
POS = np.abs(F) + 0.5
INTS = rng.integers(-9, 10, size=(3, 4)).astype(np.int32)
DIVISORS = rng.integers(1, 5, size=(3, 4)).astype(np.int32)
B = F > 0
IMG = rng.normal(size=(2, 6, 6, 3)).astype(np.float32)
KER = rng.normal(size=(3, 3, 3, 4)).astype(np.float32)

CASES = {
    "arithmetic": (lambda a, b: (a + b, a - b, a * b, -a, ag.abs(a), ag.square(a),
                                 ag.maximum(a, b), ag.minimum(a, b)), [F, G]),
    "int arithmetic": (lambda a, b: (a // b, a % b, a ** ag.constant(2), a / b,
                                     ag.abs(a), ag.math.sign(a)), [INTS, DIVISORS]),
    "float math": (lambda a: (ag.sqrt(a), ag.exp(a), ag.log(a), ag.tanh(a), ag.sigmoid(a),
                              ag.log1p(a), ag.floor(a), ag.ceil(a), ag.round(a * 3),
                              ag.nn.relu(a - 1), a ** 1.5), [POS]),
    "comparisons": (lambda a, b: (a < b, a <= b, a > b, a >= b, ag.equal(a, b),
                                  ag.not_equal(a, b)), [INTS, DIVISORS]),
    "logic": (lambda p, q: (ag.logical_and(p, q), ag.logical_or(p, q),
                            ag.logical_xor(p, q), ag.logical_not(p)), [B, ~B]),
    "reductions": (lambda a: (ag.reduce_sum(a, 0), ag.reduce_mean(a, 1), ag.reduce_max(a),
                              ag.reduce_min(a, [0, 1], keepdims=True), ag.reduce_prod(a, 1),
                              ag.argmax(a, 1), ag.argmin(a, 0)), [F]),
    "int reductions": (lambda a: (ag.reduce_mean(a, 1), ag.reduce_sum(a), ag.reduce_max(a, 0)),
                       [INTS]),
    "bool reductions": (lambda p: (ag.reduce_any(p, 1), ag.reduce_all(p)), [B]),
    "shapes": (lambda a: (ag.reshape(a, [4, 3]), ag.transpose(a), ag.expand_dims(a, 1),
                          ag.squeeze(ag.expand_dims(a, 0)), ag.shape(a), ag.size(a),
                          ag.rank(a), ag.zeros_like(a), ag.ones_like(a),
                          ag.fill([2, 2], a[0, 0]), ag.cast(a, ag.int32)), [F]),
    "joining": (lambda a, b: (ag.concat([a, b], 1), ag.stack([a, b], 1),
                              *ag.unstack(a, axis=1), ag.identity(a),
                              ag.where(a > b, a, b)), [F, G]),
    "indexing": (lambda a, i: (a[1], a[:, 2], a[::-1, 1:3], a[i], a[..., i], a[None, -1],
                               ag.gather(a, [2, 0, 2], axis=1)), [F, np.int32(2)]),
    "nn": (lambda a, labels: (ag.nn.softmax(a), ag.nn.log_softmax(a),
                              ag.nn.sparse_softmax_cross_entropy_with_logits(labels, a)),
           [F, np.array([0, 3, 1], np.int32)]),
    "matmul and conv2d": (lambda a, b, x, k: (ag.matmul(a, ag.transpose(b)),
                                              ag.nn.conv2d(x, k, 1, "SAME"),
                                              ag.nn.conv2d(x, k, 2, "VALID")),
                          [F, G, IMG, KER]),
}


def _numpy(values):
    values = values if isinstance(values, (list, tuple)) else [values]
    return [np.asarray(v.numpy()) for v in values]


def _compare(expected, actual):
    for e, a in zip(expected, actual, strict=True):
        assert a.dtype == e.dtype and a.shape == e.shape
        if e.dtype.kind == "f":
            np.testing.assert_allclose(a, e, rtol=2e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(a, e)


@pytest.mark.parametrize("name", list(CASES))
def test_op_results_match_the_numpy_runtime(name):
    fn, arrays = CASES[name]
    tensors = [ag.constant(a) for a in arrays]
    _compare(_numpy(ag.function(fn)(*tensors)),
             _numpy(ag.function(fn, jit_compile=True)(*tensors)))


GRADIENT_CASES = {
    "broadcast and slices": lambda a, b: ag.reduce_sum(a[1:, ::2] * b[0, :2]) +
    ag.reduce_sum(a[:, None, 1] * b[:, :1]),
    "gather and top_k": lambda a, b: ag.reduce_sum(ag.gather(a, [0, 2, 2]) *
                                                   ag.top_k(b, 2)[0][0, 0]),
    "conv2d": lambda x, k: ag.reduce_sum(ag.square(ag.nn.conv2d(x, k, 1, "SAME"))),
    "pad, tile, softmax": lambda a, b: ag.reduce_sum(
        ag.pad(ag.tile(a, [1, 2]), [[1, 0], [0, 2]]) * 0.5 + ag.nn.softmax(b)[0, 1]),
}
GRADIENT_ARGS = {"conv2d": [IMG, KER]}


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients_match_the_numpy_runtime(name):
    fn = GRADIENT_CASES[name]
    tensors = [ag.constant(a.astype(np.float64)) for a in GRADIENT_ARGS.get(name, [F, G])]
    results = []
    for jit in (False, True):
        compiled = ag.function(fn, jit_compile=jit)
        with ag.GradientTape() as tape:
            for t in tensors:
                tape.watch(t)
            y = compiled(*tensors)
        results.append(_numpy([y, *tape.gradient(y, tensors)]))
    _compare(*results)
