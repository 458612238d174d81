"""`converted_call`: converts the user's functions on the fly, calls library code as it
is, sends builtins that meet tensors to their overloads."""

import json
import math
import textwrap
import warnings

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import assert_same, run_mode
from tests.api.test_to_graph_cache import conversions  # noqa: F401 -- a fixture

MODES = ("python", "eager", "graph")


def clip_negative(v):
    if v < 0:
        v = 0 * v
    return v


def sum_clipped(xs):
    total = 0
    for x in xs:
        total += clip_negative(x)
    return total


@pytest.mark.parametrize("mode", MODES)
def test_user_helper_is_converted_on_the_fly(mode):
    assert_same(sum_clipped([3, -1, 4]), run_mode(mode, sum_clipped, ([3, -1, 4],)))


def test_helper_if_stages_as_a_cond():
    with ag.Graph().as_default() as graph:
        ag.converted_call(clip_negative, ag.placeholder(ag.float32, shape=()))
    assert "If" in {op.type for op in graph.get_operations()}


def library_calls(x):
    text = textwrap.dedent("  a")
    return (math.sqrt(x), np.sum(np.arange(3)), json.dumps([x]), text,
            ag.add(ag.constant(1.0), 1.0).numpy(), sorted([x, 1]))


@pytest.mark.usefixtures("converted_path")  # on Python values: the converted code's calls
def test_library_code_is_called_as_is(conversions):  # noqa: F811
    assert ag.converted_call(library_calls, 4.0) == library_calls(4.0)
    # Only the user's function was converted; the stdlib / numpy / runtime were not.
    assert conversions == ["library_calls"]


def builtins_over_tensors(xs, n, v):
    total = 0
    for i, x in enumerate(xs):
        total += i * x
    for a, b in zip(xs, xs):
        total += a * b
    for i in range(n):
        total += i
    seen = []
    for x in xs:
        seen.append(x)  # a TensorList when the loop is staged: still a list to isinstance
    has = 1 if isinstance(seen, list) else 0
    return (total, len(xs), abs(v), int(v), float(n), min(v, 2.0), max(v, 2.0),
            min(xs), max(xs), has)


@pytest.mark.parametrize("mode", MODES)
def test_builtins_dispatch_over_tensors(mode):
    args = ([3, 1, 4], 4, -2.5)
    assert_same(builtins_over_tensors(*args), run_mode(mode, builtins_over_tensors, args))


class Counter:
    def __init__(self):
        self.total = 0

    def add_positive(self, x):
        if x > 0:
            self.total += x
        return self.total

    def __call__(self, x):
        return self.add_positive(x) * 2


def calls_method_and_object(counter, x):
    counter.add_positive(x)
    return counter(x)


@pytest.mark.parametrize("mode", MODES)
def test_methods_and_callable_objects(mode):
    expected = calls_method_and_object(Counter(), 3)
    assert_same(expected, run_mode(mode, calls_method_and_object, (Counter(), 3)))


def count_up(n):
    yield from range(n)


def sums_generator(n):
    return sum(count_up(n))


@pytest.mark.usefixtures("converted_path")  # the converted caller calls the generator
def test_a_generator_runs_as_python_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ag.to_graph(sums_generator)(4) == 6


def first_zero(xs):
    found = -1
    for x in xs:
        found += 1
        match x:
            case 0:
                break  # cannot be lowered inside `match`
    return found


def calls_first_zero(xs):
    return first_zero(xs)


@pytest.mark.usefixtures("converted_path")  # as written, nothing tries to convert it
def test_unconvertible_user_function_runs_as_is_with_a_warning():
    with pytest.warns(UserWarning, match=r"first_zero.*'break' inside 'match'"):
        assert ag.to_graph(calls_first_zero)([3, 0, 4]) == 1
    # Warned once: the function is then remembered as one to run as it is.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ag.to_graph(calls_first_zero)([0, 5]) == 0


def test_keyword_named_f_passes_through():
    def takes_f(f, x=0):
        return f + x

    assert ag.converted_call(takes_f, f=1, x=2) == 3
