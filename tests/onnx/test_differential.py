"""ONNX export, three ways: our numpy runtime (the oracle) vs ONNX's reference evaluator
vs onnxruntime, over the corpus of converted functions (tests/onnx/corpus.py).

Every case must export, pass `check_model(full_check=True)` and give our results (same
dtype and shape, equal integers, floats within a few ulps, nan where we give nan) in both
ONNX runners; every refused case must raise an `ExportError` naming the op and the
file:line of the user's code.
`test_export_rate` prints the share of the corpus that exports (run with -s to see it).
"""

import numpy as np
import onnx
import pytest

import autograph_py as ag
from tests.onnx import corpus, runners

_TOLERANCE = {2: 1e-3, 4: 1e-5, 8: 1e-12}


def _same(expected, got, where):
    """Same dtypes and shapes; integers and bools equal, floats within a few ulps."""
    assert len(expected) == len(got), where
    for i, (want, value) in enumerate(zip(expected, got)):
        assert value.dtype == want.dtype, f"{where} output {i}: {value.dtype} != {want.dtype}"
        assert value.shape == want.shape, f"{where} output {i}: {value.shape} != {want.shape}"
        if want.dtype.kind == "f":
            # ONNX runtimes have their own exp/tanh/...: a few ulps apart from numpy's.
            tolerance = _TOLERANCE[want.dtype.itemsize]
            np.testing.assert_allclose(value, want, rtol=tolerance, atol=tolerance,
                                       equal_nan=True, err_msg=f"{where} output {i}")
        else:
            np.testing.assert_array_equal(value, want, err_msg=f"{where} output {i}")


@pytest.mark.parametrize("name", sorted(corpus.CASES))
def test_three_runners_agree(name):
    case = corpus.CASES[name]
    model = ag.onnx.export(case.fn, *case.signature)
    onnx.checker.check_model(model, full_check=True)
    assert [i.name for i in model.graph.input] == \
        list(case.fn.__code__.co_varnames[:case.fn.__code__.co_argcount])
    oracle = runners.ours(case.fn, case.signature)
    evaluator, session = runners.reference(model), runners.runtime(model)
    for args in case.arguments:
        expected = oracle(*args)
        _same(expected, evaluator(*args), f"{name}{args} reference evaluator")
        _same(expected, session(*args), f"{name}{args} onnxruntime")


@pytest.mark.parametrize("name", sorted(corpus.REFUSED))
def test_refused_with_the_op_and_the_users_line(name):
    fn, signature, op_type = corpus.REFUSED[name]
    with pytest.raises(ag.onnx.ExportError) as info:
        ag.onnx.export(fn, *signature)
    message = str(info.value)
    assert f"({op_type})" in message
    line = fn.__code__.co_firstlineno + 1  # the body's one statement
    assert f"corpus.py:{line}" in message, message


def test_export_rate():
    exported = [n for n, c in corpus.CASES.items()
                if isinstance(ag.onnx.export(c.fn, *c.signature), onnx.ModelProto)]
    rate = len(exported) / len(corpus.CASES)
    print(f"\nONNX export: {len(exported)}/{len(corpus.CASES)} corpus functions "
          f"({rate:.0%}); refused on purpose: {sorted(corpus.REFUSED)}")
    assert rate == 1.0


def append_rows_of_unknown_length(xs, n):
    rows = []
    for _ in range(n):
        rows.append(xs)
    return ag.stack(rows)


# Was our runtime's bug (an empty list's placeholder 0 dim kept): runtime/operators/lists.py.
def test_rows_of_unknown_length_appended_in_a_loop():
    signature = (corpus.VF32, corpus.I32)
    args = (np.ones(3, np.float32), np.int32(2))
    expected = runners.ours(append_rows_of_unknown_length, signature)(*args)
    model = ag.onnx.export(append_rows_of_unknown_length, *signature)
    _same(expected, runners.runtime(model)(*args), "onnxruntime")


def test_no_node_of_an_exported_model_is_unused():
    # A rule writes every output of a multi-output op and the constants it may use; what
    # no output needs is dropped (runtime/onnx/model.py), in branches and bodies too.
    from autograph_py.runtime.onnx.model import _all_graphs

    for name, case in corpus.CASES.items():
        graphs = _all_graphs(ag.onnx.export(case.fn, *case.signature).graph)
        used = {value for g in graphs for node in g.node for value in node.input}
        used |= {out.name for g in graphs for out in g.output}
        unused = [node.name for g in graphs for node in g.node
                  if not set(node.output) & used]
        assert not unused, (name, unused)
