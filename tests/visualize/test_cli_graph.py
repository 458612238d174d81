"""`autograph graph`: the installed command, run as a subprocess on real files.

Oracles: the same function traced in this process (its ops are the picture's nodes),
Graphviz reading the written files, the markers of programs.py for error lines.
"""

import concurrent.futures
import inspect
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import autograph_py as ag
from tests.visualize import programs
from tests.visualize.rendered import parse
from tests.visualize.traced import expected_clusters, expected_ops

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed.py"
PROGRAMS = pathlib.Path(programs.__file__)
COMMAND = ([shutil.which("autograph")] if shutil.which("autograph")
           else [sys.executable, "-m", "autograph_py.cli"])


def autograph(*args, env=None, command=COMMAND):
    return subprocess.run([*command, "graph", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=300)


def seed_sum_even():
    sys.path.insert(0, str(SEED.parent))
    try:
        import seed
    finally:
        sys.path.remove(str(SEED.parent))
    return seed.sum_even


def paths_of(fn, *specs):
    return {path for path, _, _ in expected_ops(
        ag.function(fn).get_concrete_function(*specs).graph)}


VECTOR = ag.TensorSpec([None], ag.int32)


def test_svg_of_the_seeds_sum_even(tmp_path):
    out = tmp_path / "sum_even.svg"
    result = autograph(SEED, "-f", "sum_even", "-s", "int32[None]", "-o", out)
    assert (result.returncode, result.stderr) == (0, "")
    svg = ET.parse(out).getroot()
    titles = {el.text for el in svg.iter() if el.tag.endswith("title")}
    graph = ag.function(seed_sum_even()).get_concrete_function(VECTOR).graph
    assert {path for path, _, _ in expected_ops(graph)} <= titles
    assert set(expected_clusters(graph)) <= titles


def test_dot_file_with_placeholders_at_the_def_line(tmp_path):
    out = tmp_path / "sum_even.dot"
    result = autograph(SEED, "--function", "sum_even", "--signature", "int32[None]",
                       "-o", out)
    assert result.returncode == 0, result.stderr
    picture = parse(out.read_text())
    fn = seed_sum_even()
    assert set(picture.nodes) == paths_of(fn, VECTOR)
    def_line = inspect.getsourcelines(fn)[1]
    assert picture.nodes["items"]["label"].endswith(f"\\nseed.py:{def_line}")


def test_output_onto_a_device_or_fifo_is_written_through_not_replaced(tmp_path):
    # As `autograph convert -o`: only regular files are replaced (atomically).
    null = tmp_path / "null.dot"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
    result = autograph(SEED, "-f", "sum_even", "-s", "int32[None]", "-o", null)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(null.stat().st_mode)
    fifo = tmp_path / "graph.dot"
    os.mkfifo(fifo)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        read = pool.submit(fifo.read_text)
        result = autograph(SEED, "-f", "sum_even", "-s", "int32[None]", "-o", fifo)
        text = read.result(timeout=300)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert set(parse(text).nodes) == paths_of(seed_sum_even(), VECTOR)


def test_png(tmp_path):
    out = tmp_path / "nested.png"
    result = autograph(PROGRAMS, "-f", "nested_loops", "-s", "int32[]", "-o", out)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_stdout_holds_only_dot_even_when_the_file_prints(tmp_path):
    source = tmp_path / "chatty.py"
    source.write_text("import autograph_py as ag\n"
                      "print('hello from import')\n\n\n"
                      "def step(x, n):\n"
                      "    print('tracing')\n"
                      "    while n > 0:\n"
                      "        x = x * 2.0\n"
                      "        n -= 1\n"
                      "    return x\n")
    result = autograph(source, "-f", "step", "-s", "float32[None, 3], int32[]", "--collapse")
    assert result.returncode == 0, result.stderr
    assert "hello from import" in result.stderr and "tracing" in result.stderr
    picture = parse(result.stdout)
    assert picture.clusters == {}
    assert any(node["label"].startswith("While") for node in picture.nodes.values())
    x_edges = [e["label"] for t, _, e in picture.edges if t == "x"]
    assert x_edges and set(x_edges) == {"float32[?, 3]"}


def test_help_says_the_file_is_imported_and_run():
    result = subprocess.run([*COMMAND, "graph", "--help"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0
    assert "IMPORTS" in result.stdout and "runs its top-level code" in result.stdout


def _one_line(result):
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize(("args", "status", "message"), [
    (["missing.py", "-f", "f"], 2, "missing.py: no such file"),
    ([SEED, "-f", "sum_evn", "-s", "int32[None]"], 2,
     f"{SEED}: no function named 'sum_evn'; did you mean sum_even?"),
    ([SEED, "-f", "sum_even", "-s", "int32[None"], 2,
     "--signature 'int32[None': column 6: dims must be closed by ']'"),
    ([SEED, "-f", "sum_even", "-s", "int32[two]"], 2,
     "--signature 'int32[two]': column 7: a dim is an int, None or ?, not 'two'"),
    ([SEED, "-f", "sum_even", "-s", "int33[]"], 2,
     "--signature 'int33[]': column 1: unknown dtype name 'int33'"),
    ([SEED, "-f", "sum_even", "-s", "int32[None]", "-o", "picture.pdf"], 2,
     "picture.pdf: cannot write .pdf; name the output .svg, .png or .dot"),
])
def test_usage_errors(args, status, message):
    result = autograph(*args)
    assert result.returncode == status
    assert _one_line(result).startswith(message)


def test_a_function_that_fails_to_trace_names_the_users_line():
    result = autograph(PROGRAMS, "-f", "fails_to_trace", "-s", "float32[3]")
    assert result.returncode == 1
    line = programs.marker_line(programs.fails_to_trace, "bad matmul")
    assert _one_line(result).startswith(
        f"{PROGRAMS}:{line}: cannot trace fails_to_trace(float32[3]): ValueError: MatMul")


def test_a_signature_that_does_not_fit_names_the_def_line():
    result = autograph(SEED, "-f", "sum_even", "-s", "int32[None], int32[]")
    assert result.returncode == 1
    def_line = inspect.getsourcelines(seed_sum_even())[1]
    assert _one_line(result).startswith(f"{SEED}:{def_line}: cannot trace sum_even(")


@pytest.mark.parametrize(("source", "message"), [
    ("import autograph_py\n\nx = 1 / 0\n", ":3: importing {path} raised ZeroDivisionError"),
    ("def f(x):\n    return (x\n", ":2:12: '(' was never closed"),
    ("import sys\nsys.exit(3)\n", ": the file called sys.exit(3) while being imported"),
])
def test_a_file_that_fails_to_import(tmp_path, source, message):
    path = tmp_path / "broken.py"
    path.write_text(source)
    result = autograph(path, "-f", "f", "-s", "float32[]")
    assert result.returncode == 1
    assert _one_line(result).startswith(f"{path}{message.format(path=path)}")


def test_without_graphviz_the_dot_is_written_and_one_line_says_how_to_install(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}  # neither dot nor graphviz-pure is found
    out = tmp_path / "nested.svg"
    result = autograph(PROGRAMS, "-f", "nested_loops", "-s", "int32[]", "-o", out, env=env,
                       command=[sys.executable, "-m", "autograph_py.cli"])
    assert result.returncode == 1
    message = _one_line(result)
    assert message.startswith(f"{out}: Graphviz's dot was not found, so the graph was "
                              f"written to {tmp_path / 'nested.dot'}")
    assert "install Graphviz" in message
    assert not out.exists()
    picture = parse((tmp_path / "nested.dot").read_text())
    assert set(picture.nodes) == paths_of(programs.nested_loops, ag.TensorSpec([], ag.int32))


def test_a_dotted_path_reaches_a_method_of_an_object_the_file_creates(tmp_path):
    source = tmp_path / "model.py"
    source.write_text("import autograph_py as ag\n\n\n"
                      "class Model:\n"
                      "    def step(self, x):\n"
                      "        if ag.reduce_sum(x) > 0:\n"
                      "            x = x * 2.0\n"
                      "        return x\n\n\n"
                      "model = Model()\n")
    out = tmp_path / "step.dot"
    result = autograph(source, "-f", "model.step", "-s", "float32[2]", "-o", out)
    assert result.returncode == 0, result.stderr
    picture = parse(out.read_text())
    module = {}
    exec(compile(source.read_text(), str(source), "exec"), module)
    assert set(picture.nodes) == paths_of(module["model"].step, ag.TensorSpec([2], ag.float32))
    assert any(name.startswith("cluster_") and name.endswith("/then") for name in
               picture.clusters)


@pytest.mark.parametrize("name, kind", [("fetch", "an async function"),
                                        ("count", "a generator function")])
def test_a_generator_or_async_function_is_refused_with_its_line(tmp_path, name, kind):
    # Issue 25, bug 7: `autograph graph -f fetch` drew a one-node graph, status 0.
    source = tmp_path / "suspending.py"
    source.write_text("async def fetch(x):\n    return x * 2\n\n\n"
                      "def count(n):\n    for i in range(n):\n        yield i\n")
    result = autograph(source, "-f", name, "-s", "int32[]")
    line = 1 if name == "fetch" else 5
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{source}:{line}: ag.function cannot trace {name}: it is "
                                    f"{kind}")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
