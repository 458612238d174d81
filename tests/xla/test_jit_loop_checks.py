"""Compiled loops end at the first failed check and raise what the numpy runtime raises
(the oracle: the same function through `ag.function` without jit_compile): the loop
carries one status value (running, done, or the failed check's code), and these tests
pin what that encoding must keep: which check fails first, in nested loops, before a
loop, and in a loop whose body has no check of its own."""

import numpy as np
import pytest

import autograph_py as ag


def outcome(fn, *args, jit):
    """('ok', result) or (error type, the op and line it names) of one call (the
    compiled call does not know the failing index's value, so the rest of the message
    differs)."""
    try:
        return "ok", ag.function(fn, jit_compile=jit)(*args).numpy().tolist()
    except (IndexError, ZeroDivisionError, ValueError) as e:
        return type(e), str(e).split(" failed")[0]


def same_outcome(fn, *args):
    expected = outcome(fn, *args, jit=False)
    assert outcome(fn, *args, jit=True) == expected
    return expected


def sum_until(xs, d, n):
    s = 0
    i = 0
    while i < n:
        s += xs[i] // d  # two checks per iteration: the index, then the divisor
        i += 1
    return s


@pytest.mark.parametrize("d, n", [(1, 3), (2, 4), (0, 2), (0, 9), (3, 0)])
def test_the_first_failed_check_of_a_loop_is_raised(d, n):
    xs = ag.constant(np.arange(1, 4, dtype=np.int32))
    same_outcome(sum_until, xs, ag.constant(d), ag.constant(n))


def nested(xs, n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            total += xs[j]  # fails in the inner loop once i passes len(xs)
            j += 1
        i += 1
    return total


@pytest.mark.parametrize("n", [0, 3, 4, 5])
def test_a_check_failing_in_an_inner_loop_ends_both(n):
    kind, _ = same_outcome(nested, ag.constant([1, 2, 3]), ag.constant(n))
    assert (kind == "ok") == (n <= 4)


def checked_before(xs, k, n):
    first = xs[k]  # fails before the loop: the loop must not run, this error is raised
    i = 0
    while i < n:
        first = first + 1 // (n - i - 1)  # would divide by zero in its last iteration
        i += 1
    return first


@pytest.mark.parametrize("k, n", [(0, 0), (5, 3), (0, 3), (1, 1)])
def test_a_check_failed_before_a_loop_wins(k, n):
    same_outcome(checked_before, ag.constant([1, 2, 3]), ag.constant(k), ag.constant(n))


def unchecked(x, n):
    i = 0
    while i < n:  # no check in the body: its status is only the condition
        x = x * 2
        i += 1
    return x


@pytest.mark.parametrize("n", [0, 1, 7])
def test_a_loop_without_checks(n):
    kind, value = same_outcome(unchecked, ag.constant(3), ag.constant(n))
    assert kind == "ok" and value == 3 * 2 ** n
