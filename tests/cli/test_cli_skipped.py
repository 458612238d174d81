"""No function is skipped silently: those the command does not try (async, in a nested
class, under a module-level statement) are `file:line: not converted: reason` (status 1),
and a generator helper is left as written with a note (status 0, `--check` passes)."""

import pytest
from autograph_py.runtime.tensor import is_symbolic

import autograph_py as ag
from tests.cli.conftest import convert_and_import

TOP_LEVEL = "autograph converts top-level functions and methods of top-level classes"


def test_each_skipped_function_is_reported_at_its_def_line(run_cli, fixtures):
    path = fixtures / "skipped.py"
    result = run_cli("convert", path, "--check")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{path}:4: not converted: fetch() is async; autograph converts only plain "
        "functions",
        f"{path}:15: not converted: Outer.Inner.method() is a method of a nested class; "
        f"{TOP_LEVEL}",
        f"{path}:22: not converted: under_if() is defined under a module-level 'if'; "
        f"{TOP_LEVEL}",
        f"{path}:28: not converted: UnderIf.method() is defined under a module-level 'if'; "
        f"{TOP_LEVEL}",
        f"{path}:34: not converted: under_try() is defined under a module-level 'try'; "
        f"{TOP_LEVEL}",
    ]
    lines = path.read_text().splitlines()
    for line in result.stderr.splitlines():
        number = int(line.split(":")[1])
        name = line.split("not converted: ")[1].split("(")[0].split(".")[-1]
        assert lines[number - 1].lstrip().startswith((f"def {name}(", f"async def {name}("))


def test_skipped_functions_stay_as_written_and_the_rest_converts(run_cli, fixtures,
                                                                 import_file, tmp_path):
    path = fixtures / "skipped.py"
    result = run_cli("convert", path)
    original = path.read_text()
    start, end = original.index("async def fetch"), original.index("\n\n\nclass Outer")
    assert original[start:end] in result.stdout
    assert original[original.index("    class Inner"):original.index("\n\n\nif True")] \
        in result.stdout
    assert original[original.index("if True"):] in result.stdout
    (tmp_path / "skipped_ag.py").write_text(result.stdout)
    converted, plain = import_file(tmp_path / "skipped_ag.py"), import_file(path)
    assert "_ag__.if_exp" in result.stdout  # Outer.outer_method: a top-level class's method
    for x in (3, -3):
        assert converted.Outer().outer_method(x) == plain.Outer().outer_method(x)


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
