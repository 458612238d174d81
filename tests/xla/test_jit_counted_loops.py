"""Loops with a trip count known when compiling (runtime/xla/counted_loops.py) become
`lax.fori_loop`s with static bounds, and index checks on their counter are dropped where
its range proves them. Every case runs in all modes of tests/api/modes.py plus
jit_compile, against the function run as plain Python (the oracle), including the loops
that must not be counted (a check left in the body, one failed before the loop)."""

import jax
import numpy as np
import pytest
from autograph_py.runtime.xla.call import compiled_graph

import autograph_py as ag
from tests.api.modes import JIT_MODES, assert_same, run_mode
from tests.converters.corpus import sum_even  # the seed article's function


def stepped(xs, start):
    s = 0
    i = start
    while i < 7:  # a known limit, a step of 2, the start known or not
        s = s * 3 + xs[i]
        i += 2
    return s


def stepped_from_a_constant(xs):
    s = 0
    i = ag.constant(1)  # a tensor known when compiling: the loop is staged and counted
    while i < 7:
        s = s * 3 + xs[i]
        i += 2
    return s


def over_a_range(xs):
    s = 0
    for i in ag.range(2, 7):
        s = s * 2 + xs[i]
    return s


def inner_break(xs):
    total = 0
    for x in xs:  # counted
        for y in xs:  # not counted: the break is another exit
            if y > x:
                break
            total += y
    return total


def nested_ranges(xs):
    total = 0
    for i in range(3):
        for j in range(i, 4):
            total = total * 2 + xs[j] - i
    return total


def divided(xs, d):
    s = 0
    for x in xs:
        s += x // d  # a check on d stays in the body: the general loop
    return s


def checked_first(xs, k):
    s = xs[k]  # a check before the loop: it must not run when this one fails
    for x in xs:
        s += x
    return s


def capped(xs, limit):
    s = 0
    i = 0
    while i < 5:
        s += xs[i]
        i += 1
        if s > limit:
            break  # not a counted loop: the condition has another exit
    return s


XS = [3, 8, 1, 6, 4, 9, 2, 7]
CASES = [
    (sum_even, ([10, 12, 15, 20, 7],)), (sum_even, ([],)), (sum_even, (XS,)),
    (stepped, (XS, 0)), (stepped, (XS, 1)), (stepped, (XS, 6)), (stepped, (XS, 9)),
    (stepped_from_a_constant, (XS,)), (over_a_range, (XS,)), (inner_break, (XS,)),
    (nested_ranges, (XS,)),
    (divided, (XS, 2)), (divided, (XS, 0)), (divided, ([], 0)),
    (checked_first, (XS, 2)), (checked_first, (XS, 20)),
    (capped, (XS, 10)), (capped, (XS, 100)),
]


ERRORS = (IndexError, ZeroDivisionError)


def outcome(mode, fn, args):
    try:
        return "ok", run_mode(mode, fn, list(args))
    except ERRORS as e:  # graph modes raise an OpError that is also one of these
        return next(t for t in ERRORS if isinstance(e, t)), None


@pytest.mark.parametrize("mode", JIT_MODES)
@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                 enumerate(CASES)])
def test_counted_loops_match_python(mode, fn, args):
    expected = outcome("python", fn, args)
    kind, value = outcome(mode, fn, args)
    assert kind == expected[0]
    if kind == "ok":
        assert_same(expected[1], value)


def _lowered_program(fn, *args):
    f = ag.function(fn, jit_compile=True)
    tensors = [ag.constant(a) for a in args]
    f(*tensors)
    concrete = f.get_concrete_function(*tensors)
    compiled = compiled_graph(concrete.graph, concrete.inputs, concrete.outputs)
    arrays = [t.numpy() for t in tensors]
    text = str(jax.make_jaxpr(compiled.lowered)(arrays, [], None))
    return text, jax.eval_shape(compiled.lowered, arrays, [], None)[2]


@pytest.mark.parametrize("fn", [sum_even, stepped_from_a_constant, over_a_range])
def test_counted_loops_compile_without_index_checks(fn):
    text, error = _lowered_program(fn, np.arange(8, dtype=np.int32))
    assert "scan" in text and "while" not in text
    assert error is None  # the element reads' index checks were proven away


def test_a_loop_with_a_break_keeps_its_counters_range():
    text, error = _lowered_program(inner_break, np.arange(8, dtype=np.int32))
    assert text.count("scan[") == 1 and text.count("while[") == 1  # the inner one
    assert error is None


def test_a_loop_with_a_check_left_keeps_the_general_loop():
    text, error = _lowered_program(divided, np.arange(5, dtype=np.int32), 3)
    assert "while" in text and error is not None


def test_prints_in_a_counted_loop_run_once_per_iteration(capsys):
    def printing(xs):
        s = 0
        for x in xs:
            ag.print("x =", x)
            s += x
        return s

    ag.function(printing)(ag.constant([4, 5, 6]))
    expected = capsys.readouterr().out
    ag.function(printing, jit_compile=True)(ag.constant([4, 5, 6]))
    assert capsys.readouterr().out == expected == "x = 4\nx = 5\nx = 6\n"
