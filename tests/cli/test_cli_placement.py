"""Every function of a file is converted wherever it is defined: methods of classes nested
at any depth, functions and classes under module-level (and class-level) `if`, `try`,
`with`, `for`, `while` and `match`, nested functions through their parent. Each behaves
as the original (run both) and stages on symbolic tensors."""

import jax
import numpy as np
import pytest
from autograph_py.runtime.tensor import is_symbolic

import autograph_py as ag
from tests.cli.conftest import convert_and_import, force_converted_path

ASYNC_NOTE = "note: fetch() is async; left as written (async functions run as Python)"

# (name, call): every converted function of the fixture, on one argument.
CALLS = {
    "Outer.Inner.method": lambda m, x: m.Outer.Inner().method(x),
    "Outer.Inner.Deepest.method": lambda m, x: m.Outer.Inner.Deepest().method(x),
    "Outer.conditional_method": lambda m, x: m.Outer().conditional_method(x),
    "under_if": lambda m, x: m.under_if(x),
    "UnderIf.method": lambda m, x: m.UnderIf().method(x),
    "fast_abs": lambda m, x: m.fast_abs(x),
    "platform_sign": lambda m, x: m.platform_sign(x),
    "under_with": lambda m, x: m.under_with(x),
    "under_for": lambda m, x: m.under_for(x),
    "under_while": lambda m, x: m.under_while(x),
    "under_match": lambda m, x: m.under_match(x),
    "outer_with_nested": lambda m, x: m.outer_with_nested(x),
}
ARGUMENTS = (3.0, -3.0, 24.0)


@pytest.fixture(scope="module")
def placement(tmp_path_factory):
    return convert_and_import("placement.py", tmp_path_factory.mktemp("placement"))


def test_everything_converts_and_only_async_is_noted(run_cli, fixtures):
    path = fixtures / "placement.py"
    result = run_cli("convert", path, "--check")
    assert (result.returncode, result.stderr) == (0, f"{path}:6: {ASYNC_NOTE}\n")


def test_the_rest_of_the_file_stays_as_written(run_cli, fixtures):
    original = (fixtures / "placement.py").read_text()
    out = run_cli("convert", fixtures / "placement.py").stdout
    for kept in ["try:\n    from _autograph_no_such_module import fast_abs\nexcept ImportError:\n",
                 'if sys.platform == "no-such-platform":\n    def platform_sign(x):\n'
                 "        return 0\nelif True:\n",
                 "match sys.version_info[0]:\n    case 3:\n",
                 original[original.index("async def fetch"):original.index("\n\n\nclass Outer")],
                 "    def numbers():  # a nested generator: runs as Python, its parent converts\n"
                 "        yield x\n        yield -x\n"]:
        assert kept in out
    # One converted `if` (or `while`) per function the fixture defines with one.
    assert out.count("ag__.if_stmt(") + out.count("ag__.while_stmt(") >= len(CALLS)


@pytest.mark.parametrize("name", ["Outer.Inner.Deepest.method", "UnderIf.method", "fast_abs"])
def test_function_option_finds_functions_anywhere(run_cli, fixtures, name):
    result = run_cli("convert", fixtures / "placement.py", "-f", name)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith(f"def {name.split('.')[-1]}(")
    assert "ag__." in result.stdout


@pytest.mark.parametrize("x", ARGUMENTS)
@pytest.mark.parametrize("name", CALLS)
def test_python_values(placement, monkeypatch, name, x):
    force_converted_path(monkeypatch)  # the converted code, not the original
    original, converted = placement
    assert CALLS[name](converted, x) == CALLS[name](original, x)


@pytest.mark.parametrize("x", ARGUMENTS)
@pytest.mark.parametrize("name", CALLS)
def test_eager_tensors(placement, name, x):
    original, converted = placement
    expected = CALLS[name](original, ag.constant(x))  # eager tensors run Python's `if`
    assert np.asarray(CALLS[name](converted, ag.constant(x))) == np.asarray(expected)
    assert np.asarray(expected) == CALLS[name](original, x)


def _run_graph(fn, x):
    """`fn` on a float placeholder: (its result fed `x`, the op types of the graph)."""
    with ag.Graph().as_default() as graph:
        placeholder = ag.placeholder(ag.float32, shape=())
        result = fn(placeholder)
        assert is_symbolic(result)
        with ag.Session() as sess:
            value = sess.run(result, feed_dict={placeholder: x})
        return value, {op.type for op in graph.get_operations()}


@pytest.mark.parametrize("name", CALLS)
def test_graph_stages_control_flow(placement, name):
    original, converted = placement
    for x in ARGUMENTS:
        value, op_types = _run_graph(lambda p: CALLS[name](converted, p), x)
        assert value == CALLS[name](original, x)
        assert op_types & {"If", "While"}, op_types  # staged, not run as Python


@pytest.mark.parametrize("name", CALLS)
def test_ag_function_and_jax_jit(placement, name):
    original, converted = placement
    function = ag.function(lambda v: CALLS[name](converted, v), autograph=False)
    jitted = jax.jit(lambda v: CALLS[name](converted, v))
    for x in ARGUMENTS:
        assert function(ag.constant(x)).numpy() == CALLS[name](original, x)
        assert float(jitted(np.float32(x))) == CALLS[name](original, x)


def test_the_original_cannot_stage_these(placement):
    """The oracle's side of the staging test: as written, the `if` needs a Python bool."""
    original, _ = placement
    with ag.Graph().as_default(), pytest.raises(TypeError):
        original.under_if(ag.placeholder(ag.float32, shape=()))
