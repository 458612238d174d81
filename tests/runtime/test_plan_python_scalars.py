"""Rank-0 integers and bools held as Python scalars in compiled plans
(runtime/plan/python_scalars.py): staged loops keep every semantic of the kernels.

Oracles: the same function on numpy scalars (which wrap as the kernels do) or as plain
Python where nothing overflows, numpy's own IndexError, the kernels' ZeroDivisionError.
Each case runs on eager tensors, as a Session graph on placeholders and through
`ag.function` (tests/api/modes.py); where the point is the plan, its source is checked
to take the path under test.
"""

import re

import numpy as np
import pytest
from autograph_py.runtime import registry
from autograph_py.runtime.plan.python_scalars import scalar_view

import autograph_py as ag
from tests.api.modes import MODES, run_mode

STAGED = [m for m in MODES if m != "python"]  # Python ints do not wrap: not an oracle there


def accumulate(items):
    s = items[0] - items[0]  # zero of the items' dtype
    for c in items:
        s += c
    return s


def lcg(seed, n):
    x = seed
    i = 0
    while i < n:
        x = x * 1103515245 + 12345  # overflows int32 nearly every step
        i += 1
    return x


def _staged_results(fn, *args):
    return {mode: run_mode(mode, fn, args) for mode in STAGED}


def _plan_code(fn, *args):
    return ag.function(fn).get_concrete_function(*args).code


def _assert_same(results, expected):
    for mode, got in results.items():
        got = np.asarray(got)
        assert got.dtype == expected.dtype, mode
        np.testing.assert_array_equal(got, expected, err_msg=mode)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_an_accumulator_that_overflows_wraps_as_the_kernel(dtype):
    info = np.iinfo(dtype)
    items = np.array([info.max, info.max // 2 + 1, 3, info.max, info.min, 7], dtype)
    expected = dtype(0)
    with np.errstate(over="ignore"):
        for c in items:
            expected = expected + c  # numpy scalars wrap as the Add kernel does
    tensor = ag.constant(items)
    _assert_same(_staged_results(accumulate, tensor), np.asarray(expected))
    code = _plan_code(accumulate, tensor)
    assert "wrap_" in code and "_view" in code  # Python ints, elements read through a view


def test_a_folded_multiply_add_chain_wraps_once_per_iteration():
    seed, n = ag.constant(np.int32(12345)), ag.constant(np.int32(50))
    expected = np.int32(12345)
    with np.errstate(over="ignore"):
        for _ in range(50):
            expected = expected * np.int32(1103515245) + np.int32(12345)
    _assert_same(_staged_results(lcg, seed, n), np.asarray(expected))
    code = _plan_code(lcg, seed, n)
    # x * a + c in one statement, wrapped once after it
    assert re.search(r"(\w+) = \(\1 \* 1103515245\) \+ 12345\n.*wrap_int32\(\1\)", code)


def test_scalar_loops_without_overflow_equal_plain_python():
    def branchy(n):
        i, s, flag = 0, 0, False
        while i < n:
            if i % 3 == 0 and not flag:
                s -= i // 2
            else:
                s += i * i
            flag = s > 40 or flag
            i += 1
        return s, flag

    for n in (0, 1, 7, 20):
        expected = branchy(n)
        for mode in MODES:
            s, flag = run_mode(mode, branchy, [n])
            assert (int(s), bool(flag)) == expected, mode
        if n:
            s, flag = run_mode("function", branchy, [n])
            assert np.asarray(s).dtype == np.int32 and np.asarray(flag).dtype == np.bool_


@pytest.mark.parametrize("name", ["floordiv", "mod"])
def test_a_zero_divisor_inside_a_loop_raises_the_kernels_error(name):
    op = getattr(ag, name)

    def divide_down(n, d):
        while n > 1:
            n = op(n, d)
        return n

    kernel = registry.get("FloorDiv" if name == "floordiv" else "FloorMod").kernel
    with pytest.raises(ZeroDivisionError) as kernel_error:  # the oracle: the kernel itself
        kernel(np.asarray(9, np.int32), np.asarray(0, np.int32))
    for mode in STAGED:
        with pytest.raises(ZeroDivisionError) as error:
            run_mode(mode, divide_down, [ag.constant(np.int32(9)), ag.constant(np.int32(0))])
        assert str(kernel_error.value) in str(error.value), mode
    assert int(run_mode("function", divide_down,
                        [ag.constant(np.int32(9)), ag.constant(np.int32(2))])) == 1


# The eager kernel warns here (numpy's integer overflow warning); the plans do not.
@pytest.mark.filterwarnings("ignore:overflow encountered in floor_divide:RuntimeWarning")
def test_the_smallest_integer_floor_divided_by_a_fed_minus_one_wraps():
    def halve(x, d):
        i = 0
        while i < 1:
            x = x // d
            i += 1
        return x

    x, d = np.int32(np.iinfo(np.int32).min), np.int32(-1)
    with np.errstate(all="ignore"):
        expected = np.floor_divide(np.asarray(x), np.asarray(d))
    _assert_same(_staged_results(halve, ag.constant(x), ag.constant(d)), expected)


def test_reading_past_the_end_in_a_loop_raises_numpys_index_error():
    def overrun(items, n):
        s = 0
        i = 0
        while i < n:
            s += items[i]
            i += 1
        return s

    items = np.arange(5, dtype=np.int32)
    with pytest.raises(IndexError) as numpy_error:
        items[5]  # noqa: B018 (the oracle's message)
    args = [ag.constant(items), ag.constant(np.int32(6))]
    assert "_view" in _plan_code(overrun, *args)
    for mode in STAGED:
        with pytest.raises(IndexError) as error:
            run_mode(mode, overrun, args)
        assert str(numpy_error.value) in str(error.value), mode
    assert int(run_mode("function", overrun, [args[0], ag.constant(np.int32(5))])) == 10


def test_kernels_read_python_scalars_as_numpy_values_of_their_dtype():
    def mean_of_counter(n):
        total = ag.constant(0.0)
        i = 0
        while i < n:
            total += ag.cast(i, ag.float32) / ag.cast(n, ag.float32)
            i += 1
        return total, ag.fill([2], i)

    expected_total = np.float32(0)
    for i in range(6):
        expected_total += np.float32(i) / np.float32(6)
    for mode in STAGED:
        total, filled = run_mode(mode, mean_of_counter, [ag.constant(np.int32(6))])
        assert np.asarray(total).dtype == np.float32, mode
        np.testing.assert_allclose(total, expected_total, rtol=1e-6)
        np.testing.assert_array_equal(filled, np.array([6, 6], np.int32))
        assert np.asarray(filled).dtype == np.int32


def test_a_loop_variable_of_unknown_shape_is_held_as_numpy_and_converted():
    def grow(n):
        return ag.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x + i),
                             [ag.constant(0), ag.constant(1)],
                             shape_invariants=[ag.TensorShape([]), ag.TensorShape(None)])

    for mode in STAGED:
        i, x = run_mode(mode, grow, [ag.constant(np.int32(5))])
        assert (int(i), int(x)) == (5, 1 + sum(range(5))), mode
        assert np.asarray(x).dtype == np.int32


def test_scalar_view_reads_elements_of_any_byte_order():
    for array in (np.arange(4, dtype=np.int32), np.arange(4, dtype=">i4"),
                  np.arange(8, dtype=np.int64)[::2], np.array([True, False])):
        view = scalar_view(array)
        assert [view[i] for i in range(-len(array), len(array))] == \
            [array[i].item() for i in range(-len(array), len(array))]
        with pytest.raises(IndexError):
            view[len(array)]


def test_loop_variables_updated_in_place_never_clobber_a_value_still_copied():
    # The body's new `b` is bound in place only where nothing reads the old `b` after it:
    # here the old `b` is copied into `a` at the end of the iteration, so it is not.
    def fibonacci(n):
        a, b = 0, 1
        i = 0
        while i < n:
            a, b = b, a + b
            i += 1
        return a, b

    def rotate(n):
        x, y, z = 1, 2, 3
        for _ in ag.range(n):
            x, y, z = y, z + x, x
        return x, y, z

    for fn in (fibonacci, rotate):
        for n in (0, 1, 2, 9):
            expected = fn(n) if fn is fibonacci else rotate_python(n)
            for mode in STAGED:
                got = tuple(int(v) for v in run_mode(mode, fn, [ag.constant(np.int32(n))]))
                assert got == expected, (fn.__name__, n, mode)


def rotate_python(n):
    x, y, z = 1, 2, 3
    for _ in range(n):
        x, y, z = y, z + x, x
    return x, y, z


def edge_expressions(x):
    return (x + 1, x - 1, x % 7 + 100, x % 100 + 100, x // 2, x // 3 - 1, 2 - x, (x + x) * x)


def signed_edge_expressions(x):
    return edge_expressions(x) + (x // -1, x // -2, -x, x * -3 + 5)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_wraps_tested_only_where_the_value_can_leave_the_range_are_still_exact(dtype):
    # Each expression's bounds decide which tests it gets (`x + 1` only the upper one,
    # `x % 7 + 100` none): the oracle is the same arithmetic on numpy scalars.
    info = np.iinfo(dtype)
    fn = signed_edge_expressions if info.min < 0 else edge_expressions
    for value in {int(info.min), int(info.min) + 1, 0, 1, 99, int(info.max) - 1,
                  int(info.max)}:
        x = np.asarray(value, dtype)
        with np.errstate(all="ignore"):
            expected = [np.asarray(v) for v in fn(x[()])]
        for mode in STAGED:
            with np.errstate(all="ignore"):  # the eager kernels warn; plans are silent
                got = run_mode(mode, fn, [ag.constant(x)])
            for i, (g, e) in enumerate(zip(got, expected)):
                assert np.asarray(g).dtype == e.dtype and g == e, (mode, value, i)
    code = _plan_code(fn, ag.constant(np.asarray(1, dtype)))
    assert re.search(r"if add > \d+: add = wrap_", code)  # x + 1: the upper test only
    assert re.search(r"if sub < -?\d+: sub = wrap_", code)  # x - 1: the lower test only
    assert "if add_1 " not in code and "if floor_div " not in code  # provably in range
