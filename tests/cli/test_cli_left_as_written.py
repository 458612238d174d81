"""Generators and async functions are left as written, each with a note (status 0,
`--check` passes): they run as Python. Nested in a function, they stay as written
inside its conversion; called from converted code, they run as written without a
warning. No function is skipped silently."""

import warnings

import pytest
from autograph_py.converters.errors import ConversionError
from autograph_py.runtime.tensor import is_symbolic

import autograph_py as ag
from tests.cli.conftest import convert_and_import, force_converted_path


def test_generator_helper_is_a_note_and_check_passes(run_cli, fixtures):
    path = fixtures / "generator_helper.py"
    note = f"{path}:5: note: scope() is a generator; left as written (generators run as Python)\n"
    check = run_cli("convert", path, "--check")
    assert (check.returncode, check.stdout, check.stderr) == (0, "", note)
    converted = run_cli("convert", path)
    assert (converted.returncode, converted.stderr) == (0, note)
    original = path.read_text()
    assert original[:original.index("\n\n\ndef scaled")] in converted.stdout
    selected = run_cli("convert", path, "-f", "scope")
    assert (selected.returncode, selected.stderr) == (0, note)
    assert selected.stdout == original[original.index("@contextlib"):
                                       original.index("\n\n\ndef scaled") + 1]


@pytest.fixture(scope="module")
def generator_modules(tmp_path_factory):
    return convert_and_import("generator_helper.py", tmp_path_factory.mktemp("generator"))


def _symbolic(fn, x, log):
    with ag.Graph().as_default():
        placeholder = ag.placeholder(ag.float32, shape=())
        result = fn(placeholder, log)
        assert is_symbolic(result)  # the `if` was staged, inside the helper's `with`
        with ag.Session() as sess:
            return sess.run(result, feed_dict={placeholder: x})


MODES = {"python": lambda fn, x, log: fn(x, log),
         "eager": lambda fn, x, log: fn(ag.constant(x), log).numpy(),
         "graph": _symbolic,
         # `log` is closed over: a list argument of a Function is a structure, copied.
         "function": lambda fn, x, log: ag.function(lambda v: fn(v, log), autograph=False)(
             ag.constant(x)).numpy()}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x", [3.0, -3.0])
def test_function_using_the_generator_helper_behaves_as_python(generator_modules, mode, x):
    plain, converted = generator_modules
    expected_log, log = [], []
    expected = plain.scaled(x, expected_log)
    assert MODES[mode](converted.scaled, x, log) == pytest.approx(expected)
    assert log == expected_log  # the helper ran as Python: entered and left once


ASYNC_AND_NESTED = """\
import asyncio


async def fetch(x):
    return -x if x > 0 else x


async def stream(n):
    for i in range(n):
        yield i


def collect(n):
    async def gather():
        return [i async for i in stream(n)]

    def evens():
        for i in range(n):
            if i % 2 == 0:
                yield i

    total = 0
    for v in evens():
        if v > 2:
            total += v
    return total, asyncio.run(gather()), asyncio.run(fetch(n))
"""


@pytest.fixture
def async_file(tmp_path):
    path = tmp_path / "async_and_nested.py"
    path.write_text(ASYNC_AND_NESTED)
    return path


def test_async_functions_are_notes_and_check_passes(run_cli, async_file):
    result = run_cli("convert", async_file, "--check")
    assert (result.returncode, result.stderr.splitlines()) == (0, [
        f"{async_file}:4: note: fetch() is async; left as written (async functions run as "
        "Python)",
        f"{async_file}:8: note: stream() is an async generator; left as written (async "
        "functions run as Python)"])


def test_nested_generators_and_coroutines_stay_inside_the_converted_parent(
        run_cli, async_file, import_file, tmp_path):
    result = run_cli("convert", async_file)
    assert result.returncode == 0
    out = result.stdout
    for kept in ["    async def gather():\n        return [i async for i in stream(n)]\n",
                 "    def evens():\n        for i in range(n):\n            if i % 2 == 0:\n"]:
        assert kept in out
    assert "ag__.for_stmt(" in out  # the parent is converted
    (tmp_path / "converted.py").write_text(out)
    converted, original = import_file(tmp_path / "converted.py"), import_file(async_file)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # calling a generator from converted code: silent
        for n in (0, 3, 7):
            assert converted.collect(n) == original.collect(n)


def test_to_graph_converts_a_function_with_a_nested_generator(monkeypatch):
    force_converted_path(monkeypatch)

    def outer(x):
        def halves():
            yield x / 2
            yield x / 4

        total = 0.0
        for h in halves():
            if h > 1:
                total += h
        return total

    converted = ag.to_graph(outer)
    for x in (8.0, 2.0, -4.0):
        assert converted(x) == outer(x)
    with ag.Graph().as_default() as graph:
        x = ag.placeholder(ag.float32, shape=())
        total = converted(x)
        assert "If" in {op.type for op in graph.get_operations()}
        with ag.Session() as sess:
            assert sess.run(total, feed_dict={x: 8.0}) == outer(8.0)


def test_a_generator_itself_is_still_refused_by_to_graph():
    def gen(n):
        yield n

    with pytest.raises(ConversionError, match="generator functions"):
        ag.to_graph(gen)
