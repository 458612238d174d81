"""Staging errors point at the user's own file and line, and name the variable.

What a user sees is the whole printed traceback, PEP 678 notes included, so that is
what is checked: `"".join(traceback.format_exception(e))`.
"""

import inspect
import traceback

import numpy as np
import pytest
from autograph_py.converters.errors import ConversionError

import autograph_py as ag


def line_of(fn, text):
    """The absolute line number of the first line of `fn` that contains `text`."""
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def assert_points_at(exc, fn, text, *names):
    printed = "".join(traceback.format_exception(exc))
    line = line_of(fn, text)
    assert f'File "{__file__}", line {line}' in printed or f"{__file__}:{line}" in printed, \
        printed
    for name in names:
        assert f"'{name}'" in printed, printed


def build(fn, *specs):
    """Call the converted `fn` on placeholders of the given (dtype, shape) specs."""
    with ag.Graph().as_default():
        return ag.to_graph(fn)(*[ag.placeholder(dtype, shape=shape) for dtype, shape in specs])


def one_branch(x):
    if x > 0:
        y = x * 2
    return y


def test_variable_defined_in_one_branch():
    with pytest.raises(ValueError, match="only one branch") as info:
        build(one_branch, (ag.float32, ()))
    assert_points_at(info.value, one_branch, "if x > 0:", "y")


def dtype_changes(n):
    i = 0
    x = ag.constant(0)
    while i < n:
        x = ag.cast(x, ag.float32) + 0.5
        i += 1
    return x


def test_loop_variable_whose_dtype_changes():
    with pytest.raises(TypeError, match="int32 before the loop but float32") as info:
        build(dtype_changes, (ag.int32, ()))
    assert_points_at(info.value, dtype_changes, "while i < n:", "x")


def defined_in_loop(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


def test_variable_first_defined_in_a_staged_loop_and_used_after():
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, shape=())
        with pytest.raises(Exception) as info:
            z = ag.to_graph(defined_in_loop)(n)
            with ag.Session() as sess:
                sess.run(z, {n: 0})
    assert_points_at(info.value, defined_in_loop, "while i < n:", "z")


def test_variable_defined_in_a_staged_loop_is_right_when_the_loop_runs():
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, shape=())
        z = ag.to_graph(defined_in_loop)(n)
        with ag.Session() as sess:
            assert sess.run(z, {n: 3}) == defined_in_loop(3)


def non_scalar(x):
    if x > 0:
        x = x + 1
    return x


def test_non_scalar_condition_symbolic():
    with pytest.raises(ValueError, match=r"must be a scalar, got a tensor of shape \(3,\)") \
            as info:
        build(non_scalar, (ag.float32, (3,)))
    assert_points_at(info.value, non_scalar, "if x > 0:")


@pytest.mark.usefixtures("converted_path")  # the converted code's message, on eager tensors
def test_non_scalar_condition_eager():
    with pytest.raises(TypeError, match="single value") as info:
        ag.to_graph(non_scalar)(ag.constant([1.0, -1.0, 2.0]))
    assert_points_at(info.value, non_scalar, "if x > 0:")


def python_undefined(x):
    if x > 0:
        y = 1
    return y


def test_undefined_variable_read_in_python_mode():
    with pytest.raises(UnboundLocalError, match="'y'") as info:
        ag.to_graph(python_undefined)(-1)
    assert_points_at(info.value, python_undefined, "return y", "y")


def gather_in_loop(x, indices):
    total = 0.0
    for i in indices:
        total += ag.gather(x, i)
    return total


def test_kernel_failure_at_run_time_names_the_line_that_created_the_op():
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=(3,))
        indices = ag.placeholder(ag.int32, shape=(2,))
        total = ag.to_graph(gather_in_loop)(x, indices)
        with ag.Session() as sess, pytest.raises(IndexError) as info:
            sess.run(total, {x: np.ones(3, np.float32), indices: np.array([0, 9], np.int32)})
    assert_points_at(info.value, gather_in_loop, "total += ag.gather(x, i)")
    assert "GatherV2" in str(info.value)


def a_generator(x):
    yield x


def test_unsupported_construct_is_a_conversion_error_with_file_and_line():
    with pytest.raises(ConversionError) as info:
        ag.to_graph(a_generator)
    line = line_of(a_generator, "yield x")
    assert str(info.value).startswith(f"{__file__}:{line}:")
    assert "generator functions (yield) are not supported" in str(info.value)


def helper_one_branch(v):
    if v > 0:
        w = v
    return w


def calls_helper(x):
    return helper_one_branch(x) + 1


def test_error_in_a_converted_helper_names_both_lines():
    with pytest.raises(ValueError) as info:
        build(calls_helper, (ag.float32, ()))
    assert_points_at(info.value, calls_helper, "return helper_one_branch(x) + 1", "w")
    assert_points_at(info.value, helper_one_branch, "if v > 0:")


def test_errors_keep_their_type_and_are_noted_once():
    for _ in range(2):  # the second call fails again with a fresh exception
        with pytest.raises(ValueError) as info:
            build(one_branch, (ag.float32, ()))
        assert len(info.value.__notes__) == 1


def returns_two_dtypes(x):
    if x > 0:
        return x
    return "negative"


def test_return_values_of_different_dtypes_are_named_as_the_return_value():
    with pytest.raises(TypeError, match="the return value") as info:
        build(returns_two_dtypes, (ag.float32, ()))
    assert "float32" in str(info.value) and "string" in str(info.value)
    assert_points_at(info.value, returns_two_dtypes, "if x > 0:")
