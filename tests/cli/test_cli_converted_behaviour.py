"""The converted module the command prints imports and behaves like the original: on
Python values and on eager tensors (exact Python semantics), and it builds graphs on
symbolic tensors."""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import autograph_py as ag


def both(modules, name):
    original, converted = modules
    return getattr(original, name), getattr(converted, name)


def test_the_converted_module_starts_with_the_runtime_import(seed_modules):
    _, converted = seed_modules
    assert converted.ag__ is ag.operators


@pytest.mark.parametrize("x", [9.0, -9.0, 0.0, 3, -2])
def test_square_if_positive_on_python_values(seed_modules, x):
    original, converted = both(seed_modules, "square_if_positive")
    assert converted(x) == original(x)


@given(st.lists(st.integers(-1000, 1000), max_size=20))
@settings(max_examples=50, deadline=None)
def test_sum_even_on_python_lists(seed_modules, items):
    original, converted = both(seed_modules, "sum_even")
    assert converted(items) == original(items)


@pytest.mark.parametrize("x", [9.0, -9.0])
def test_square_if_positive_on_eager_tensors(seed_modules, x):
    original, converted = both(seed_modules, "square_if_positive")
    expected, actual = original(ag.constant(x)), converted(ag.constant(x))
    np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


def test_sum_even_on_an_eager_tensor(seed_modules):
    original, converted = both(seed_modules, "sum_even")
    items = ag.constant([10, 12, 15, 20])
    assert int(converted(items)) == int(original(items)) == 42


@pytest.mark.parametrize("call", [
    lambda m: m.collatz_steps(6),
    lambda m: m.collatz_steps(27),  # stops at LIMIT through `break`
    lambda m: m.first_negative_index([3, 1, -4, -1]),
    lambda m: m.first_negative_index([3, 1]),
    lambda m: m.apply_twice(1),
    lambda m: m.apply_twice(7),
    lambda m: m.Accumulator(1).add_positive([2, -3, 4]),
    lambda m: m.Accumulator.clamp(5, 0, 3),
    lambda m: m.Accumulator.clamp(-1, 0, 3),
    lambda m: m.left_alone(0),
    lambda m: [m.exclusive_or(a, b) for a in (0, 1) for b in (0, 1)],
    lambda m: m.squares(5),
])
def test_classes_and_nested_functions_on_python_values(nested_modules, call):
    original, converted = nested_modules
    assert call(converted) == call(original)


@pytest.mark.parametrize("call", [
    lambda m: m.collatz_steps(ag.constant(6)),
    lambda m: m.first_negative_index(ag.constant([3.0, 1.0, -4.0])),
    lambda m: m.apply_twice(ag.constant(7)),
    lambda m: m.Accumulator(ag.constant(1.0)).add_positive(ag.constant([2.0, -3.0, 4.0])),
    lambda m: m.Accumulator.clamp(ag.constant(5), 0, 3),
])
def test_classes_and_nested_functions_on_eager_tensors(nested_modules, call):
    original, converted = nested_modules
    np.testing.assert_array_equal(np.asarray(call(converted)), np.asarray(call(original)))


def test_docstrings_of_converted_methods_are_kept(nested_modules):
    original, converted = nested_modules
    assert converted.Accumulator.add_positive.__doc__ == original.Accumulator.add_positive.__doc__


def test_do_not_convert_functions_are_the_original_code(nested_modules):
    original, converted = nested_modules
    assert converted.left_alone.__code__.co_code == original.left_alone.__code__.co_code
