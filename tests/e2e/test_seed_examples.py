"""Every example of the seed article (SEED_EXAMPLES.md) runs as shown and prints what the
article prints. The examples live in examples/seed.py, one function per section."""

import importlib.util
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import autograph_py as ag
from tests.trace_time import expect_trace_time, line_of, print_warning

_PATH = pathlib.Path(__file__).resolve().parents[2] / "examples" / "seed.py"
_spec = importlib.util.spec_from_file_location("seed_examples", _PATH)
seed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(seed)


def run(section, capsys):
    result = section()
    return result, capsys.readouterr().out


def test_1_eager_execution(capsys):
    _, out = run(seed.eager_execution, capsys)
    assert out == ("Tensor(\n[[4. 6.]\n [4. 6.]], shape=(2, 2), dtype=float32)\n"
                   "[[4. 6.]\n [4. 6.]]\n")


def test_2_python_control_flow_on_eager_values(capsys):
    y, out = run(seed.python_control_flow_on_eager_values, capsys)
    assert out.startswith("Tensor(") and out.endswith(", shape=(), dtype=float32)\n")
    value = float(out[len("Tensor("):].split(",")[0])
    assert 0 <= value < 1
    x = np.arange(4, dtype=np.int32).reshape(2, 2)
    expected = x @ x if value > 0.5 else x + x
    np.testing.assert_array_equal(y.numpy(), expected)
    assert y.dtype == ag.int32


def test_3_eager_gradients(capsys):
    _, out = run(seed.eager_gradients, capsys)
    assert out == "Tensor([[4.]], shape=(1, 1), dtype=float32)\n"


def test_4_autograph_to_graph(capsys):
    _, out = run(seed.autograph_to_graph, capsys)
    lines = out.splitlines()
    assert lines[0] == "Eager results: 81.00, 0.00"
    assert lines[1] == "Graph results: 81.00, 0.00"
    code = "\n".join(lines[3:])
    assert "def square_if_positive(x):" in code
    assert "ag__.if_stmt(" in code


def test_5_loops_with_continue(capsys):
    _, out = run(seed.loops_with_continue, capsys)
    assert out.startswith("Eager result: 42\nGraph result: 42\n\n\n")
    assert "ag__.for_stmt(" in out


def test_6_function_traces_once_and_prints_symbolic_handles(capsys):
    # The article prints while tracing on purpose, to show when tracing happens.
    with expect_trace_time(print_warning(seed.f)):
        _, out = run(seed.function_per_signature, capsys)
    assert out.splitlines() == [
        "Tensor([[2. 3.]], shape=(1, 2), dtype=float32) "
        "Tensor([[ 3. -2.]], shape=(1, 2), dtype=float32)",
        'Tensor("x:0", shape=(1, 2), dtype=float32) Tensor("y:0", shape=(1, 2), dtype=float32)',
    ]


def test_7_graphs_placeholders_feeds(capsys):
    _, out = run(seed.graphs_placeholders_feeds, capsys)
    first, second = out.splitlines()
    assert "6.0" in first and "4.0" in second


def test_8_functions_calling_functions(capsys):
    _, out = run(seed.functions_calling_functions, capsys)
    assert out == ("Tensor(6.0, shape=(), dtype=float32)\n"
                   "Tensor(4.0, shape=(), dtype=float32)\n")


def test_9_polymorphism_retraces_per_dtype_and_shape(capsys):
    with expect_trace_time(*_trace_time_prints(seed.polymorphism)):
        _, out = run(seed.polymorphism, capsys)
    assert out.splitlines() == [
        'Tracing with Tensor("a:0", shape=(), dtype=int32)',
        "Tensor(2, shape=(), dtype=int32)",
        'Tracing with Tensor("a:0", shape=(), dtype=float32)',
        "Tensor(2.2, shape=(), dtype=float32)",
        'Tracing with Tensor("a:0", shape=(2,), dtype=int32)',
        "Tensor([2 4], shape=(2,), dtype=int32)",
        "Tensor(6, shape=(), dtype=int32)",
    ]


def test_10_input_signature(capsys):
    _, out = run(seed.input_signature, capsys)
    lines = out.splitlines()
    assert lines[0] == "Tensor(2.0, shape=(), dtype=float32)"
    assert lines[1] == "Tensor([2.], shape=(1,), dtype=float32)"
    assert lines[2].startswith("ValueError: Python inputs incompatible with input_signature")
    assert "'x'" in lines[2] and "int32" in lines[2]


def test_11_autograph_switch(capsys):
    _, out = run(seed.autograph_switch, capsys)
    lines = out.splitlines()
    assert lines[0] == "Tensor(42, shape=(), dtype=int32)"
    assert lines[1] == "Tensor(42, shape=(), dtype=int32)"
    assert lines[2].startswith(
        "TypeError: Tensor objects are only iterable when eager execution is enabled")


def test_12_methods_and_variables(capsys):
    _, out = run(seed.methods_and_variables, capsys)
    assert out == "7 5\n"


def test_13_printing_at_run_time_every_call(capsys):
    seed.printing_at_run_time()
    seed.printing_at_run_time()
    assert capsys.readouterr().out == "1\n5\n6\n8\n3\n" * 2


def _trace_time_prints(section):
    """The print() warnings running `section` gives: once per print in what it traces."""
    if section is seed.function_per_signature:  # a new ag.function(f) on each run
        return [print_warning(seed.f)]
    if section is seed.polymorphism and seed.double.experimental_get_tracing_count() == 0:
        return [print_warning(seed.double)]  # a module's ag.function: traced on the first run
    return []


@pytest.mark.parametrize("section", seed.SECTIONS, ids=lambda s: s.__name__)
def test_main_job_runs_every_section(section, capsys):
    with expect_trace_time(*_trace_time_prints(section)):
        section()


def test_the_script_warns_only_where_the_article_prints_while_tracing():
    # README.md says `python examples/seed.py` gives these two warnings, and why.
    result = subprocess.run([sys.executable, "-W", "default", str(_PATH)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    warned = [line for line in result.stderr.splitlines() if "Warning: " in line]
    assert len(warned) == 2, result.stderr
    for line, fn in zip(warned, (seed.f, seed.double)):
        path, number = line_of(fn, "print(")
        assert line.startswith(f"{path}:{number}: TraceTimeSideEffectWarning: print() at ")
