"""Conversion is cached per (code object, options); `recursive=False`, `convert()` and
`do_not_convert()` decide what gets converted."""

import weakref

import pytest
from autograph_py.converters import pipeline

import autograph_py as ag
from autograph_py import conversion
from tests.api.modes import assert_same, run_mode


@pytest.fixture
def conversions(monkeypatch):
    """The names of the functions the pipeline converts during the test, starting from
    empty caches (so the test does not depend on what other tests converted)."""
    monkeypatch.setattr(conversion, "_factories", {})
    monkeypatch.setattr(conversion, "_instances", weakref.WeakKeyDictionary())
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
    assert "converted_call" not in code and "helper(x)" in code
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


def test_do_not_convert_on_a_method():
    class Model:
        @ag.do_not_convert
        def step(self, x):
            return x + 1

    assert ag.converted_call(Model().step, 1) == 2
    assert not conversion.is_user_function(Model.step)
