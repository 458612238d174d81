"""The converted module the command prints imports and behaves like the original: on
Python values and on eager tensors (exact Python semantics), and it builds graphs on
symbolic tensors."""

import hypothesis.strategies as st
import numpy as np
import pytest
from autograph_py.runtime.tensor import is_symbolic
from hypothesis import given, settings

import autograph_py as ag

# Python values here test the converted code: a call that stages nothing would run the
# function as written (tests/converted_path.py).
pytestmark = pytest.mark.usefixtures("converted_path")


def both(modules, name):
    original, converted = modules
    return getattr(original, name), getattr(converted, name)


def test_the_converted_module_starts_with_the_runtime_import(seed_modules):
    _, converted = seed_modules
    assert converted.__ag__ is ag.operators


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


def calls(**named):
    return pytest.mark.parametrize("call", list(named.values()), ids=list(named))


@calls(while_loop=lambda m: m.collatz_steps(6),
       while_break=lambda m: m.collatz_steps(27),  # stops at LIMIT through `break`
       for_return=lambda m: m.first_negative_index([3, 1, -4, -1]),
       for_no_return=lambda m: m.first_negative_index([3, 1]),
       nested_small=lambda m: m.apply_twice(1),
       nested_clipped=lambda m: m.apply_twice(7),
       method_attribute_state=lambda m: m.Accumulator(1).add_positive([2, -3, 4]),
       staticmethod_high=lambda m: m.Accumulator.clamp(5, 0, 3),
       staticmethod_low=lambda m: m.Accumulator.clamp(-1, 0, 3),
       do_not_convert=lambda m: m.left_alone(0),
       bool_ops=lambda m: [m.exclusive_or(a, b) for a in (0, 1) for b in (0, 1)],
       list_append=lambda m: m.squares(5))
def test_classes_and_nested_functions_on_python_values(nested_modules, call):
    original, converted = nested_modules
    assert call(converted) == call(original)


@calls(while_loop=lambda m: m.collatz_steps(ag.constant(6)),
       for_return=lambda m: m.first_negative_index(ag.constant([3.0, 1.0, -4.0])),
       nested=lambda m: m.apply_twice(ag.constant(7)),
       method=lambda m: m.Accumulator(ag.constant(1.0)).add_positive(
           ag.constant([2.0, -3.0, 4.0])),
       staticmethod=lambda m: m.Accumulator.clamp(ag.constant(5), 0, 3))
def test_classes_and_nested_functions_on_eager_tensors(nested_modules, call):
    original, converted = nested_modules
    np.testing.assert_array_equal(np.asarray(call(converted)), np.asarray(call(original)))


def test_docstrings_of_converted_methods_are_kept(nested_modules):
    original, converted = nested_modules
    assert converted.Accumulator.add_positive.__doc__ == original.Accumulator.add_positive.__doc__


def test_do_not_convert_functions_are_the_original_code(nested_modules):
    original, converted = nested_modules
    assert converted.left_alone.__code__.co_code == original.left_alone.__code__.co_code


def test_seed_functions_build_graphs_on_symbolic_tensors(seed_modules):
    _, converted = seed_modules
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        items = ag.placeholder(ag.int32, shape=(None,))
        squared, total = converted.square_if_positive(x), converted.sum_even(items)
        assert all(is_symbolic(t) for t in (squared, total))
        with ag.Session() as sess:
            assert sess.run(squared, feed_dict={x: 9.0}) == 81.0
            assert sess.run(squared, feed_dict={x: -9.0}) == 0.0
            assert sess.run(total, feed_dict={items: [10, 12, 15, 20]}) == 42


def test_methods_and_nested_functions_build_graphs_on_symbolic_tensors(nested_modules):
    original, converted = nested_modules
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, shape=())
        values = ag.placeholder(ag.float32, shape=(None,))
        fetches = {"collatz": converted.collatz_steps(n),
                   "clamp": converted.Accumulator.clamp(n, 0, 3),
                   "add": converted.Accumulator(ag.constant(1.0)).add_positive(values),
                   "twice": converted.apply_twice(n)}
        with ag.Session() as sess:
            got = sess.run(fetches, feed_dict={n: 6, values: [2.0, -3.0, 4.0]})
    assert got == {"collatz": original.collatz_steps(6), "clamp": 3,
                   "add": original.Accumulator(1.0).add_positive([2.0, -3.0, 4.0]),
                   "twice": original.apply_twice(6)}
