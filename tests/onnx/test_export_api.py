"""`ag.onnx.export`'s contract (autograph_py/onnx.py): what it takes, names, writes and
refuses; the model it makes is run by onnxruntime against our runtime."""

import subprocess
import sys

import numpy as np
import onnx
import pytest

import autograph_py as ag
from tests.onnx import runners
from tests.onnx.corpus import collatz


def test_importing_the_package_and_reading_ag_onnx_imports_no_onnx():
    code = ("import sys, autograph_py as ag; ag.function; ag.onnx.export; "
            "print('onnx' in sys.modules, 'onnxruntime' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False"]


def test_an_ag_function_uses_its_own_input_signature():
    fn = ag.function(collatz, input_signature=[ag.TensorSpec([], ag.int32, name="start")])
    model = ag.onnx.export(fn)
    assert [i.name for i in model.graph.input] == ["n"]
    assert [o.name for o in model.graph.output] == ["output_0"]
    assert model.opset_import[0].version == ag.onnx.OPSET
    run = runners.runtime(model)
    for n in (1, 7, 27):
        assert run(np.int32(n))[0] == fn(n).numpy()


def test_a_plain_function_needs_a_signature():
    with pytest.raises(TypeError, match="needs an input_signature"):
        ag.onnx.export(collatz)


def test_path_writes_a_model_that_loads_back(tmp_path):
    path = tmp_path / "collatz.onnx"
    model = ag.onnx.export(collatz, ag.TensorSpec([], ag.int32), path=str(path))
    loaded = onnx.load(str(path))
    assert loaded.SerializeToString() == model.SerializeToString()
    onnx.checker.check_model(str(path), full_check=True)


def test_nested_results_flatten_in_order():
    def parts(x):
        return {"b": x * 2.0, "a": (x + 1.0, x - 1.0)}

    model = ag.onnx.export(parts, ag.TensorSpec([2], ag.float32))
    got = runners.runtime(model)(np.array([1.0, 2.0], np.float32))
    want = ag.nest.flatten(parts(ag.constant([1.0, 2.0])))
    assert len(got) == 3
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w.numpy())


def test_a_python_value_in_the_result_is_refused():
    def with_flag(x):
        return x + 1.0, True

    with pytest.raises(ag.onnx.ExportError, match="returns a Python value"):
        ag.onnx.export(with_flag, ag.TensorSpec([], ag.float32))


def test_an_op_without_a_row_names_the_op_and_the_users_line():
    def products(x):
        return ag.cumprod(x)

    with pytest.raises(ag.onnx.ExportError) as info:
        ag.onnx.export(products, ag.TensorSpec([None], ag.float32))
    line = products.__code__.co_firstlineno + 1
    assert "(Cumprod)" in str(info.value) and "no ONNX conversion" in str(info.value)
    assert f"test_export_api.py:{line}" in str(info.value)


def test_an_effect_in_a_loop_body_is_refused_not_dropped():
    def prints_in_loop(n):
        i = 0
        while i < n:
            ag.print(i)
            i += 1
        return i

    with pytest.raises(ag.onnx.ExportError, match=r"\(PrintV2\).*pure function"):
        ag.onnx.export(prints_in_loop, ag.TensorSpec([], ag.int32))


def test_variables_become_initializers_holding_their_value_now():
    scale = ag.Variable(3.0, name="scale")

    def scaled(x):
        return x * scale

    model = ag.onnx.export(scaled, ag.TensorSpec([], ag.float32))
    scale.assign(5.0)  # the model keeps the value it was exported with
    [initializer] = model.graph.initializer
    # (the Variable's own name: "scale", or "scale_N" when the process made one before)
    assert initializer.name == scale.name and scale.name.startswith("scale")
    assert onnx.numpy_helper.to_array(initializer) == np.float32(3.0)
    assert runners.runtime(model)(np.float32(2.0))[0] == np.float32(6.0)


def test_maximum_iterations_is_the_loops_trip_count():
    def bounded(x):
        return ag.while_loop(lambda i, s: s < 1000.0, lambda i, s: (i + 1, s * 2.0),
                             [ag.constant(0), x], maximum_iterations=5)

    model = ag.onnx.export(bounded, ag.TensorSpec([], ag.float32))
    [loop] = [n for n in model.graph.node if n.op_type == "Loop"]
    assert loop.input[0] != ""
    for x in (1.0, 100.0, 5000.0):
        got = runners.runtime(model)(np.float32(x))
        want = [t.numpy() for t in bounded(ag.constant(np.float32(x)))]
        assert [g.item() for g in got] == [w.item() for w in want]
