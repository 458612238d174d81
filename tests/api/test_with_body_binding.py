"""A `with` body may stop at any statement: its manager may swallow the exception
(`contextlib.suppress`), and so may an `except`, or a jump in a `finally` block. What such
a block was about to bind keeps its value from before, and the converted `if`/loop bodies
must carry it in (issue 24, triage F4)."""
import contextlib

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

# Plain values must run the converted code, not the function as written (the modes of
# tests/api/modes.py force it too; the tests calling ag.to_graph directly need this).
pytestmark = pytest.mark.usefixtures("converted_path")


def risky(p):
    if p > 2:
        raise ValueError(p)
    return p


def suppressed_in_if(a):
    v = 1
    if a > 0:  # staged on a tensor
        with contextlib.suppress(ValueError):
            risky(3)
            v = 5
        a += v
    return a


def suppressed_in_while(a, n):
    v = 1
    i = 0
    while i < n:  # staged on a tensor
        with contextlib.suppress(ValueError):
            risky(3)
            v = 5
        a += v
        i += 1
    return a


def suppressed_in_for(a, xs):
    v = 1
    for x in xs:
        with contextlib.suppress(ValueError):
            risky(x)
            v = x
        a += v
    return a


def swallowed_by_except(a):
    v = 1
    if a > 0:
        try:
            risky(3)
            v = 5
        except ValueError:
            pass
        a += v
    return a


def suppressed_with_in_try(a):
    v = 1
    if a > 0:
        try:
            with contextlib.suppress(ValueError):
                risky(3)
                v = 5
        except KeyError:
            pass
        a += v
    return a


def read_in_finally(a):
    v = 1
    out = [0]
    with contextlib.suppress(ValueError):
        if a > 0:
            try:
                risky(3)
                v = 5
            finally:
                out[0] = v  # the value from before: the exception came first
    return a + out[0]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, args", [
    (suppressed_in_if, (1,)),
    (suppressed_in_if, (-1,)),
    (suppressed_in_while, (0, 3)),
    (suppressed_in_for, (0, (1, 5, 2, 7))),  # a tuple: iterated in Python, not staged
    (swallowed_by_except, (1,)),
    (suppressed_with_in_try, (1,)),
    (read_in_finally, (1,)),
], ids=lambda x: getattr(x, "__name__", None))
def test_an_assignment_an_exception_skips_keeps_the_value_from_before(mode, fn, args):
    assert_same(fn(*args), run_mode(mode, fn, args))


def with_jumps(a, xs, stop):
    v = 1
    for x in xs:
        with contextlib.suppress(ValueError):
            if x == 2:
                if stop == "break":
                    break
                if stop == "continue":
                    continue
                return a * 10
            risky(x)
            v = x
        a += v
    return a


@pytest.mark.parametrize("stop", ["break", "continue", "return"])
@pytest.mark.parametrize("xs", [[1, 5, 2, 7], [5, 1, 7]])
def test_a_suppressing_with_that_jumps_in_a_loop(stop, xs):
    assert ag.to_graph(with_jumps)(0, xs, stop) == with_jumps(0, xs, stop)


def test_a_name_only_the_skipped_assignment_binds_is_unbound_after_it():
    def f(a, xs):
        for x in xs:
            with contextlib.suppress(ValueError):
                v = risky(x)
            a += v
        return a

    assert ag.to_graph(f)(0, [1, 2]) == f(0, [1, 2])
    with pytest.raises(UnboundLocalError, match="'v'"):
        f(0, [5, 1])
    with pytest.raises(UnboundLocalError, match="'v'"):
        ag.to_graph(f)(0, [5, 1])
