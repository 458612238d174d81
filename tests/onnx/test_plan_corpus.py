"""The plan compiler's corpus of graphs (tests/runtime/plan/plan_corpus.py), exported at
the graph level (`runtime/onnx/model.graph_to_model`) and run by ONNX's reference
evaluator and onnxruntime against the plan tests' reference interpreter of the graph.

The corpus holds Session graphs and traces alike (the seed's examples, wrapping integer
arithmetic, raw `while_loop`s with a condition graph and `maximum_iterations`, indexing);
the cases ONNX cannot express are listed in `REFUSED` with the text of their error.
"""

import numpy as np
import pytest
from autograph_py.runtime.onnx.model import graph_to_model
from autograph_py.runtime.onnx.table import ExportError
from autograph_py.runtime.recording import EAGER_CONTEXT

from tests.onnx import runners
from tests.onnx.test_differential import _same
from tests.runtime.plan import plan_corpus
from tests.runtime.plan.reference import interpret

REFUSED = {
    # ONNX's Neg has no unsigned types.
    "scalar_mix_uint8": "op 'Neg' (Neg) created at",
    # A TensorArray's checks are errors an ONNX model cannot raise (docs/limitations.md).
    "vectorized_tensor_array_map": "op 'TensorArrayScatter' (TensorArrayScatter) created at",
}


def _model(built):
    feeds = list(built.feeds)
    return graph_to_model(built.graph, feeds, built.fetches,
                          [f"input_{i}" for i in range(len(feeds))],
                          [f"output_{i}" for i in range(len(built.fetches))])


@pytest.mark.parametrize("name", sorted(set(plan_corpus.CASES) - set(REFUSED)))
def test_exported_graph_computes_what_the_interpreter_does(name):
    built = plan_corpus.build(name)
    args = [np.asarray(v) for v in built.feeds.values()]
    expected = [np.asarray(v) for v in interpret(
        EAGER_CONTEXT, built.fetches, built.targets, {id(t): v for t, v in built.feeds.items()})]
    model = _model(built)
    _same(expected, runners.reference(model)(*args), f"{name} reference evaluator")
    _same(expected, runners.runtime(model)(*args), f"{name} onnxruntime")


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_graphs_name_the_op(name):
    with pytest.raises(ExportError, match="cannot be exported") as info:
        _model(plan_corpus.build(name))
    assert REFUSED[name] in str(info.value)
    assert "plan_corpus.py:" in str(info.value)
