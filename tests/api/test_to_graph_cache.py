"""Conversion is cached per (code object by identity, options); `recursive=False`, `convert()` and
`do_not_convert()` decide what gets converted."""

import gc
import importlib.util
import threading
import time
import traceback
import weakref

import pytest
from autograph_py.converters import pipeline

import autograph_py as ag
from autograph_py import conversion
from autograph_py.conversion_cache import ConversionCache
from tests.api.modes import assert_same, run_mode


@pytest.fixture
def conversions(monkeypatch):
    """The names of the functions the pipeline converts during the test, starting from
    empty caches (so the test does not depend on what other tests converted)."""
    monkeypatch.setattr(conversion, "_cache", ConversionCache())
    seen = []
    original = pipeline.convert_function

    def counting(node, ctx):
        seen.append(node.name)
        return original(node, ctx)

    monkeypatch.setattr(pipeline, "convert_function", counting)
    return seen


def make_adder(n):
    # Every closure this returns shares one code object.
    def add_if_positive(x):
        if x > 0:
            x = x + n
        return x

    return add_if_positive


def test_same_code_converts_once_per_options(conversions):
    add2, add3 = make_adder(2), make_adder(3)
    assert ag.to_graph(add2)(1) == 3
    assert ag.to_graph(add3)(1) == 4          # same code: no new conversion, own cells
    ag.to_code(add2)
    assert conversions == ["add_if_positive"]
    ag.to_graph(add2, recursive=False)        # other options: converted again
    assert conversions == ["add_if_positive"] * 2


def test_each_closure_keeps_its_own_cells_in_graph_mode():
    for n in (2, 3):
        assert_same(make_adder(n)(5), run_mode("graph", make_adder(n), (5,)))


def helper(x):
    if x > 0:
        x = x * 2
    return x


def calls_helper(x):
    return helper(x) + 1


def test_recursive_false_leaves_calls_as_written():
    code = ag.to_code(calls_helper, recursive=False)
    assert "ag__.converted" not in code and "helper(x)" in code
    assert ag.to_graph(calls_helper, recursive=False)(3) == 7
    # The helper is not converted: its `if` meets a symbolic tensor as plain Python.
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        with pytest.raises(TypeError, match="symbolic tensor"):
            ag.to_graph(calls_helper, recursive=False)(x)


def test_recursive_true_converts_the_helper_too():
    assert_same(calls_helper(-3.0), run_mode("graph", calls_helper, (-3.0,)))


@ag.convert()
def converted_by_decorator(x):
    if x > 0:
        x = -x
    return x


@pytest.mark.parametrize("mode", ["python", "eager", "graph"])
def test_convert_decorator(mode):
    assert converted_by_decorator.__ag_converted__
    # to_graph of an already converted function returns it: run_mode sees the decorated one.
    assert_same(-4, run_mode(mode, converted_by_decorator, (4,)))


@ag.do_not_convert
def kept_as_written(x):
    if x > 0:
        x = x * 10
    return x


def calls_kept(x):
    return kept_as_written(x)


def test_do_not_convert_runs_the_original(conversions):
    assert ag.to_graph(calls_kept)(2) == 20
    assert conversions == ["calls_kept"]
    with ag.Graph().as_default():
        with pytest.raises(TypeError, match="symbolic tensor"):
            ag.to_graph(calls_kept)(ag.placeholder(ag.int32, shape=()))


def test_ag_function_traces_a_do_not_convert_function_as_written(conversions):
    # As tf.function: the `if` on a symbolic tensor is not converted, so it raises (and
    # says why); a function without Python control flow on tensors traces and runs.
    with pytest.raises(TypeError, match="marked ag.do_not_convert"):
        ag.function(kept_as_written)(ag.constant(2))
    assert conversions == []
    doubled = ag.do_not_convert(lambda x: x * 2)
    assert ag.function(doubled)(ag.constant(3)).numpy() == 6


def test_do_not_convert_on_a_method():
    class Model:
        @ag.do_not_convert
        def step(self, x):
            return x + 1

    assert ag.converted_call(Model().step, 1) == 2
    assert not conversion.is_user_function(Model.step)


# --- the key: the code object's identity (issue 10), held weakly, thread-safe (issue 11) --

TWIN_SOURCE = """\
def pick(x):
    if x > 10:
        x = x - 3
    if False:
        x = {dead}
    return x
"""


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_equal_code_from_two_files_converts_twice(tmp_path, conversions):
    modules = []
    for name, dead in (("twin_a", 100), ("twin_b", 200)):
        path = tmp_path / f"{name}.py"
        path.write_text(TWIN_SOURCE.format(dead=dead))
        modules.append(_load(path, name))
    a, b = (m.pick for m in modules)
    # CPython compiles the `if False:` bodies away: the code objects compare equal.
    assert a.__code__ == b.__code__ and a.__code__ is not b.__code__
    assert "x = 100" in ag.to_code(a) and "x = 200" in ag.to_code(b)
    assert conversions == ["pick", "pick"]
    for fn in (a, b):
        for mode in ("python", "eager", "graph"):
            for x in (3, 13):
                assert_same(fn(x), run_mode(mode, fn, (x,)))
    with pytest.raises(TypeError) as info:   # errors name the function's own file
        ag.to_graph(b)("text")
    assert f'{tmp_path / "twin_b.py"}", line 2' in "".join(
        traceback.format_exception(info.value))


CLOSURE_SOURCE = """\
def make(n):
    def clip(x):
        if x > n:
            x = n
        return x
    return clip
"""


def test_conversions_are_held_weakly(tmp_path, conversions):
    path = tmp_path / "short_lived.py"
    path.write_text(CLOSURE_SOURCE)
    clip = _load(path, "short_lived").make(2)
    assert ag.to_graph(clip)(5) == 2
    code_ref = weakref.ref(clip.__code__)
    del clip            # the last reference to the module, its functions and their code
    gc.collect()
    assert code_ref() is None
    assert conversion._cache._by_code == {} and len(conversion._cache._by_function) == 0


def test_a_reassigned_code_object_is_converted_again(conversions):
    def fn(x):
        return x + 1

    def other(x):
        return x * 10

    assert ag.to_graph(fn)(2) == 3
    fn.__code__ = other.__code__
    assert ag.to_graph(fn)(2) == 20
    assert conversions == ["fn", "other"]


def test_concurrent_first_conversions_convert_once(conversions, monkeypatch):
    started = threading.Barrier(8)
    original = pipeline.convert_function

    def slow(node, ctx):       # widen the window in which threads could both convert
        time.sleep(0.01)
        return original(node, ctx)

    monkeypatch.setattr(pipeline, "convert_function", slow)
    results = []

    def convert_and_run(n):
        started.wait()
        results.append(ag.to_graph(make_adder(n))(1))

    threads = [threading.Thread(target=convert_and_run, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [1 + n for n in range(8)]
    assert conversions == ["add_if_positive"]
