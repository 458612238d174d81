"""Loop patterns users expect to stage, beyond the converter corpus (which already runs
`break`, `continue`, `for/else`, plain `enumerate`/`zip` in every mode): `return` from
staged `for`/`while`, `enumerate` with a start, nested `zip`, nested `range` loops with
a symbolic bound, lists grown in staged loops, helpers called from loops, directives.

Each function runs as plain Python on Python values (the oracle), then converted on
Python values, eager tensors, and placeholders run by a Session.
"""

import numpy as np
import pytest
from autograph_py.runtime import nest

import autograph_py as ag
from tests.api.modes import assert_same, run_mode, to_numpy
from tests.api.test_converted_call import clip_negative

MODES = ("python", "eager", "graph")


def graph_xfail(reason):
    """The three modes, the graph one expected to fail for `reason` (a diagnosis)."""
    return ["python", "eager",
            pytest.param("graph", marks=pytest.mark.xfail(strict=True, reason=reason))]


def check(mode, fn, *args, expected=None):
    """Converted `fn` in `mode` gives `expected`, by default the plain-Python result."""
    if expected is None:
        expected = fn(*args)
    assert_same(nest.map_structure(to_numpy, expected), run_mode(mode, fn, args))


def first_above(xs, limit):
    for x in xs:
        if x > limit:
            return x
    return -1


def weighted(xs):
    total = 0
    for i, x in enumerate(xs, 1):
        total += i * x
    return total


def masked_dot(xs, ys, mask):
    total = 0
    for x, (y, m) in zip(xs, zip(ys, mask)):
        if m > 0:
            total += x * y
    return total


def triangle(n):
    total = 0
    for i in range(n):
        for j in range(i):
            total += j
    return total


def countdown_return(n):
    while n > 0:
        if n % 7 == 0:
            return n
        n -= 1
    return -1


def sum_both_clipped(xs):
    total = 0
    for x in xs:
        total += clip_negative(x) + clip_negative(-x)  # a converted helper, called twice
    return total


CASES = [
    (first_above, ([1, 5, 3], 2)), (first_above, ([1, 2], 5)),
    (weighted, ([3, 4, 5],)), (masked_dot, ([1, 2, 3], [4, 5, 6], [1, 0, 1])),
    (triangle, (5,)), (triangle, (0,)),
    (countdown_return, (20,)), (countdown_return, (5,)),
    (sum_both_clipped, ([3, -1, 4],)),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                 enumerate(CASES)])
def test_loop_pattern(mode, fn, args):
    check(mode, fn, *args)


def doubled_stacked(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return ag.stack(out)


def doubled_sum(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    total = 0
    for v in out:
        total += v
    return total, len(out)


def large_doubled_sum(xs):
    out = []
    for x in xs:
        if x > 1:
            out.append(x * 2)
    total = 0
    for v in out:
        total += v
    return total


@pytest.mark.parametrize("mode", MODES)
def test_list_appended_in_a_staged_loop_then_iterated(mode):
    check(mode, doubled_sum, [1, 2, 3])


@pytest.mark.parametrize("mode", MODES)
def test_list_appended_under_a_tensor_if_in_a_staged_loop(mode):
    check(mode, large_doubled_sum, [1, 2, 3])


@pytest.mark.parametrize("mode", MODES)
def test_list_appended_in_a_staged_loop_then_ag_stack(mode):
    check(mode, doubled_stacked, [1, 2, 3])


def set_loop_options(**options):
    """Stand-in for the directive when the function runs as plain Python."""


def capped_count(n):
    i = 0
    while i < n:
        set_loop_options(maximum_iterations=3)
        i += 1
    return i


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [10, 2])
def test_while_with_maximum_iterations(mode, n):
    # The directive caps the converted loop in every mode; plain Python ignores it.
    check(mode, capped_count, n, expected=min(n, 3))


def test_ag_set_loop_options_exists_for_plain_python():
    assert ag.set_loop_options(maximum_iterations=3) is None


def found_flag_or_else(xs, target):
    for x in xs:
        if x == target:
            found = 1
            break
    else:
        found = 0
    return found


@pytest.mark.parametrize("mode", MODES + ("function", "jax"))
@pytest.mark.parametrize("xs, target", [([1, 2, 3], 2), ([1, 2, 3], 7)])
def test_a_symbol_first_bound_under_a_staged_if_in_a_loop_with_else(mode, xs, target):
    # The loop's probe iteration sees `found` defined in one branch only (it is unbound
    # before the loop); that must teach the probe its spec, not fail as "defined in only
    # one branch" (it did in graph and function modes).
    check(mode, found_flag_or_else, xs, target)


def return_once_a_list_grew(xs):
    ys = []
    for x in xs:
        if len(ys) == 1:
            return x * 10
        ys.append(x)
    return -1


@pytest.mark.parametrize("mode", MODES + ("function",))
@pytest.mark.parametrize("xs", [[3, 4, 5], [3]])
def test_a_return_under_the_length_of_a_list_the_loop_grows(mode, xs):
    # The loop's probe must see the list's length as the loop will (unknown): with the
    # static length 0 of its first probe, `len(ys) == 1` was a Python False there, the
    # return value was never learnt, and the loop failed ("different structure after a
    # loop iteration").
    check(mode, return_once_a_list_grew, xs)


def last_seen_only_inside_the_if(a, b):
    if b > 0:
        i = 0
        while i < b:
            last = a if a > i else i
            i += 1
        a = last
    return a + b


@pytest.mark.parametrize("mode", MODES + ("function", "jax"))
@pytest.mark.parametrize("a, b", [(3, 1), (0, 3), (4, -1)])
def test_a_name_bound_in_one_branch_and_dead_after_the_if_stages(mode, a, b):
    # `last` is unbound before the `if` and dead after it, so the staged `if` must not
    # carry it (it was rejected as "defined in only one branch ... and used after it").
    check(mode, last_seen_only_inside_the_if, a, b)


def rows_repeated(row, n):
    rows = []
    for _ in range(n):
        rows.append(row)
    return ag.stack(rows)


@pytest.mark.parametrize("mode", MODES + ("function",))
def test_rows_appended_in_a_staged_loop(mode):
    check(mode, rows_repeated, [1.0, 2.0, 3.0], 2)


def test_rows_of_a_length_unknown_when_traced_appended_in_a_staged_loop():
    # Repro (found by the ONNX differential test): an empty list whose element dims are
    # unknown starts as a (0, 0) tensor, and that placeholder 0 was taken for the rows'
    # real length, so the first append's concat of a (1, 3) row failed.
    row, n = np.array([1.0, 2.0, 3.0], np.float32), 2
    expected = np.stack([row] * n)
    traced = ag.function(rows_repeated, input_signature=[
        ag.TensorSpec([None], ag.float32), ag.TensorSpec([], ag.int32)])
    np.testing.assert_array_equal(traced(row, np.int32(n)).numpy(), expected)
    with ag.Graph().as_default():
        row_in, n_in = ag.placeholder(ag.float32, [None]), ag.placeholder(ag.int32, [])
        stacked = ag.to_graph(rows_repeated)(row_in, n_in)
        with ag.Session() as sess:
            np.testing.assert_array_equal(sess.run(stacked, {row_in: row, n_in: n}), expected)


def first_row_then_others(first, other, n):
    rows = [first]
    i = 1
    while i < n:
        rows.append(other)
        i += 1
    return ag.stack(rows)


def test_rows_of_another_length_are_an_error_not_reinterpreted():
    # Python's stack refuses rows of two lengths; the staged list must too (reshaping
    # a list of 6-element rows into 3-element rows would be a wrong answer).
    traced = ag.function(first_row_then_others, input_signature=[
        ag.TensorSpec([None], ag.float32), ag.TensorSpec([None], ag.float32),
        ag.TensorSpec([], ag.int32)])
    same = traced(np.ones(3, np.float32), np.zeros(3, np.float32), np.int32(3))
    np.testing.assert_array_equal(same.numpy(), [[1, 1, 1], [0, 0, 0], [0, 0, 0]])
    with pytest.raises(ag.OpError, match="reshape|concat"):
        traced(np.ones(6, np.float32), np.zeros(3, np.float32), np.int32(2))
