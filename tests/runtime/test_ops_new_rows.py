"""The registry rows of issue 12 part 4: which have gradient rules (as in TensorFlow), and
graphs of them lint, print, serialize to JSON and run the same after the round trip."""

import json

import numpy as np
from autograph_py.runtime import registry

import autograph_py as ag

DIFFERENTIABLE = ["PadV2", "PadGrad", "Tile", "TileGrad", "BooleanMask", "BooleanMaskGrad",
                  "Sort", "TopKV2", "TakeAlongAxis", "PutAlongAxis", "Cumsum", "Cumprod",
                  "LinSpace", "Einsum", "Sign", "Log1p", "LogSoftmax",
                  "SparseSoftmaxCrossEntropyWithLogits"]
NOT_DIFFERENTIABLE = ["OneHot", "ArgSort", "Floor", "Ceil", "Round", "IsFinite", "IsInf",
                      "IsNan"]


def test_gradient_rules_are_where_tensorflow_has_them():
    assert [n for n in DIFFERENTIABLE if registry.gradient(n) is None] == []
    assert [n for n in NOT_DIFFERENTIABLE if registry.gradient(n) is not None] == []


def _build():
    x = ag.placeholder(ag.float32, [2, 3], name="x")
    n = ag.placeholder(ag.int32, [], name="n")
    outputs = [
        ag.pad(x, [[1, 0], [0, n]], "REFLECT"), ag.tile(x, [1, n]), ag.one_hot([0, 2], n),
        ag.boolean_mask(x, [True, False]), ag.cumsum(x, 1, True, True), ag.cumprod(x, 0),
        ag.einsum("ij,kj->ik", x, x), ag.sort(x, 0, "DESCENDING"), ag.argsort(x),
        ag.math.top_k(x, n).indices, ag.linspace(0.0, 1.0, n), ag.reduce_logsumexp(x),
        ag.norm(x, 1, [0, 1]), ag.nn.log_softmax(x), ag.round(x), ag.clip_by_value(x, 1, 4),
        ag.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=x),
        ag.nn.sigmoid_cross_entropy_with_logits(labels=ag.ones_like(x), logits=x)]
    return x, n, outputs


def test_graphs_of_the_new_ops_round_trip_through_json():
    with ag.Graph().as_default() as graph:
        x, n, outputs = _build()
        graph.lint()
    rebuilt = ag.Graph.from_dict(json.loads(json.dumps(graph.as_dict())))
    assert rebuilt.as_text() == graph.as_text()
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    with ag.Session(graph) as sess:
        expected = sess.run(outputs, {x: value, n: 2})
    with ag.Session(rebuilt) as sess:
        got = sess.run([t.name for t in outputs], {"x:0": value, "n:0": 2})
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)
