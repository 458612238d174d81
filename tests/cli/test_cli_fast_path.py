"""A module `autograph convert` wrote keeps each converted function as written beside its
conversion, and runs the one as written where a call stages nothing (the fast path): the
decorators apply once, to the dispatching function; methods, `super()`, properties with
setters, static and class methods, `functools.singledispatch` and closures work on both
paths. Which path ran is counted at `__ag__.if_stmt` (every function here has an `if`)."""

import inspect
import os
import subprocess
import sys

import pytest

import autograph_py as ag
from autograph_py import config
from tests.cli.conftest import convert_and_import


@pytest.fixture
def modules(decorated_modules):
    return decorated_modules


@pytest.fixture
def staged_ifs(monkeypatch):
    """The number of `if` statements the converted code ran, so far."""
    count = [0]
    if_stmt = ag.operators.if_stmt

    def counting(*args, **kwargs):
        count[0] += 1
        return if_stmt(*args, **kwargs)

    monkeypatch.setattr(ag.operators, "if_stmt", counting)
    return count


def _calls(module):
    box = module.Box()
    box.size = -4
    after_negative = box.size
    box.size = 7
    return [module.clipped(30), module.describe(""), module.describe(5),
            module.describe(-5), module.make_scaler(3)(2), after_negative, box.size,
            module.Box.double(4), box.double(4), module.Box.named(1), box.total(2), box.total(80),
            module.halve(9), module.halve(-3)]


@pytest.mark.parametrize("enabled", [True, False])
def test_both_paths_behave_as_the_original(modules, staged_ifs, enabled, monkeypatch):
    monkeypatch.setattr(config, "_fast_path", enabled)
    original, converted = modules
    assert _calls(converted) == _calls(original)
    assert (staged_ifs[0] == 0) == enabled


def test_each_decorator_applied_once(modules):
    original, converted = modules
    assert converted.REGISTERED == original.REGISTERED == ["clipped"]
    assert isinstance(inspect.getattr_static(converted.Box, "size"), property)
    assert isinstance(inspect.getattr_static(converted.Box, "double"), staticmethod)
    assert isinstance(inspect.getattr_static(converted.Box, "named"), classmethod)
    assert not hasattr(converted.Box, "size__converted")
    assert not hasattr(converted, "clipped__converted")


def test_metadata_is_the_originals(modules):
    original, converted = modules
    for name in ("clipped", "make_scaler"):
        assert inspect.signature(getattr(converted, name)) == inspect.signature(
            getattr(original, name))
        assert getattr(converted, name).__qualname__ == name
    setter = inspect.getattr_static(converted.Box, "size").fset
    assert setter.__qualname__ == "Box.size"
    assert setter.__code__.co_qualname == "Box.size"  # the function as written itself
    assert setter.__ag_converted_source__.__qualname__ == "Box.size"  # its conversion


def test_a_closure_made_on_the_fast_path_stages_in_a_graph(modules):
    _, converted = modules
    scale = converted.make_scaler(3)  # as written: its `scale` too
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        y = ag.converted_call(scale, x)  # converted on the fly, as a user function
        with ag.Session() as sess:
            assert sess.run(y, {x: 2.0}) == 6.0
            assert sess.run(y, {x: -2.0}) == -2.0


def test_a_decorated_function_stages_in_a_graph(modules, staged_ifs):
    _, converted = modules
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        y = converted.clipped(x)
        with ag.Session() as sess:
            assert sess.run(y, {x: 30.0}) == 10.0
    assert staged_ifs[0] == 1


def test_to_code_prints_the_conversion_without_the_dispatch(modules):
    _, converted = modules
    code = ag.to_code(converted.clipped)
    assert code.startswith("def clipped(x):\n")  # as to_code prints what to_graph converts
    assert "if_stmt" in code and "stages" not in code and "__converted" not in code


def test_a_module_imported_twice_hands_over_to_its_own_conversion(modules, monkeypatch):
    """Two copies of one converted file (`import_fresh_module` makes them) have equal
    code objects; each function as written must hand a staging call to the conversion of
    its own copy, which reads that copy's globals (realcode: json's C and Python tests)."""
    from tests.cli.conftest import import_path
    _, converted = modules
    first, second = converted, import_path(converted.__file__)
    monkeypatch.setattr(config, "_fast_path", False)  # every call hands over
    second.REGISTERED.append("only in the second copy")
    assert first.clipped(30) == second.clipped(30) == 10
    assert first.register(first.clipped) is first.clipped
    assert first.REGISTERED == ["clipped", "clipped"]
    assert second.REGISTERED == ["clipped", "only in the second copy"]


def test_imported_with_the_fast_path_off_the_module_binds_its_conversions(tmp_path):
    # AUTOGRAPH_FAST_PATH=0 when the module is imported: no call would run as written,
    # so no frame of the function as written comes before its conversion's.
    previous = config.set_fast_path(False)
    try:
        original, converted = convert_and_import("decorated.py", tmp_path)
        assert _calls(converted) == _calls(original)
    finally:
        config.set_fast_path(previous)
    assert "stages" not in inspect.getsource(converted.clipped)  # the conversion itself
    assert converted.clipped.__name__ == "clipped" and converted.REGISTERED == ["clipped"]
    code = ag.to_code(converted.clipped)
    assert "def clipped(" in code and "__converted" not in code


def test_a_plain_call_after_a_graph_was_built_still_stages_in_the_next(modules, staged_ifs,
                                                                       monkeypatch):
    # The types found plain are forgotten when a graph starts being built: a plain call
    # inside the graph's `as_default()` takes the converted path (Python values in a
    # graph may meet tensors through closures and globals), and after it the fast path.
    monkeypatch.setattr(config, "_fast_path", True)
    _, converted = modules
    assert converted.clipped(30) == 10 and staged_ifs[0] == 0
    with ag.Graph().as_default():
        assert converted.clipped(30) == 10
    assert staged_ifs[0] == 1
    assert converted.clipped(30) == 10 and staged_ifs[0] == 1


def test_turning_the_fast_path_off_after_plain_calls(modules, staged_ifs, monkeypatch):
    monkeypatch.setattr(config, "_fast_path", True)
    _, converted = modules
    assert converted.clipped(30) == 10 and staged_ifs[0] == 0
    monkeypatch.setattr(config, "_fast_path", False)  # as tests/converted_path.py does
    assert converted.clipped(30) == 10 and staged_ifs[0] == 1


def test_a_parameter_named_type(modules):
    original, converted = modules
    with open(converted.__file__, encoding="utf-8") as f:
        assert "if (__ag__.type(self) not in __ag__.plain or __ag__.type(type)" in f.read()
    for error in (None, KeyError, ValueError):
        assert (converted.Managed().__exit__(error, None, None)
                == original.Managed().__exit__(error, None, None))
    with pytest.raises(ValueError), converted.Managed():
        raise ValueError
    with converted.Managed():
        raise KeyError


_DEEPEST = """
import importlib.util, sys

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

def deepest(f, limit=400):
    # The largest n with f(n) not reaching the recursion limit `limit`.
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        low, high = 0, limit
        while low < high:
            middle = (low + high + 1) // 2
            try:
                f(middle)
                low = middle
            except RecursionError:
                high = middle - 1
        return low
    finally:
        sys.setrecursionlimit(previous)

original, converted = load(sys.argv[1], "original"), load(sys.argv[2], "converted")
assert converted.countdown(5) == 5  # `int` is now known plain
print(deepest(original.countdown), deepest(converted.countdown))
"""


def test_the_fast_path_adds_no_frame_to_recursion(modules):
    # tomllib's recursion-limit tests nest as deep as the original can, to one level. In
    # a process of its own: once jax is imported (other tests import it) every call asks
    # `stages`, which probes JAX's trace.
    original, converted = modules
    result = subprocess.run([sys.executable, "-c", _DEEPEST, original.__file__,
                             converted.__file__], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "AUTOGRAPH_FAST_PATH": "1"})
    assert result.returncode == 0, result.stderr
    as_written, with_hand_over = map(int, result.stdout.split())
    assert with_hand_over == as_written > 100


def test_a_decorated_first_statement(modules):
    original, converted = modules
    for value in (3, -3):
        assert converted.positive_only(abs)(value) == original.positive_only(abs)(value)
    assert converted.positive_only(abs).__wrapped__ is abs


def test_source_readers_see_the_definitions_of_the_original(tmp_path, modules):
    """pyclbr (class browsers, IDLE) reads the source: the converted file defines the
    same functions, classes and methods, and the module binds the same names (but for
    its private `__ag__`)."""
    import pyclbr

    original, converted = modules

    def outline(module):
        # Under a name no module was imported as (pyclbr looks in sys.modules first).
        name = f"outline_{tmp_path.name}_{len(os.listdir(tmp_path))}"
        # Without the import of the operators: pyclbr would go on to read our package.
        source = [line for line in inspect.getsource(module).splitlines(keepends=True)
                  if "autograph_py" not in line]
        (tmp_path / f"{name}.py").write_text("".join(source))
        read = pyclbr.readmodule_ex(name, [str(tmp_path)])
        return {name: sorted(getattr(value, "methods", {})) for name, value in read.items()}

    assert outline(converted) == outline(original)
    assert set(vars(converted)) - {"__ag__"} == set(vars(original))
    assert vars(converted.Box).keys() == vars(original.Box).keys()
