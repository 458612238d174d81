"""Issue 10, "crashes or rejections only when staged": each repro of the issue (and what
the fuzzer found next to them) as a regression test. Every function runs as plain Python
(the oracle), then converted on Python values, on eager tensors, on placeholders run by a
Session, and through `ag.function` (tests/api/modes.py); all four must give Python's
answer, or, where Python's answer cannot be staged, the documented error."""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import MODES, run_mode
from tests.api.test_staging_loops import check

STAGED = ("graph", "function")


def cases(*entries):
    """(fn, args) pairs as pytest params named after the function."""
    return pytest.mark.parametrize(
        "fn, args", entries, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(entries)])


# --- loop variables that are Python values after an iteration ------------------------


def break_at_once(xs):
    for _x in xs:
        break
    return 1


def return_first(xs):
    for _x in xs:
        return 1
    return 0


def nested_enumerate(xs):
    v = 1
    for _i in range(v):
        for _j, _x in enumerate(xs):
            v = 0
    return v


def break_to_float(xs):
    v = 0
    for _x in xs:
        v = 1.5
        break
    return v


# --- conditions -----------------------------------------------------------------------


def elif_return(a):
    if a:
        pass
    elif 1:
        return 0
    return a


def or_of_mixed_dtypes(a):
    v = 2
    if a <= 0 or v + 1:
        return 1
    return 0


def and_of_mixed_dtypes(a):
    v = 0
    n = 0
    while a > n and v + 1:
        n += 1
    return n if not (a < 0 or v) else -n


def contains(t):
    a = 2 in t
    b = 5 not in t
    if 3 in t:
        return a, b, 1
    return a, b, 0


def list_conditions(xs):
    ys = []
    for x in xs:
        if x > 1:
            ys.append(x)
    n = 0
    while ys:
        n += ys.pop()
    return n, (1 if ys else 2), not ys, bool(ys)


# --- lists ----------------------------------------------------------------------------


def list_in_while_true(a):
    items = []
    if a > 0:
        i = 0
        while True:
            items.append(i)
            i += 1
            if i >= a:
                break
    return len(items)


def guarded_by_the_list(xs):
    acc = []
    for x in xs:
        if sum(acc) > 100:
            return -1
        acc.append(x)
    return 0


def pop_in_an_expression(n):
    items = [1, 2, 3, 4]
    s = 0
    for _i in range(n):
        s += items.pop()
    return s, len(items)


def pop_statement(n):
    items = [1, 2, 3, 4]
    s = 0
    for _i in range(n):
        x = items.pop()
        s += x
    return s, len(items)


def pop_after_a_loop(a, xs):
    v = 1
    ys = []
    for _x in xs:
        ys.append(0)
    if ys:
        v += ys.pop()
    return v


def concatenated(xs):
    s = []
    for x in xs:
        s = s + [x * 2]
    s = [xs[0]] + s + []
    return ag.stack(s)


def packed_in_a_loop(n):
    v = ag.constant([1, 2])
    for i in range(n):
        ag.set_loop_options(shape_invariants=[(v, [None])])
        v = ag.concat((v, [i]), 0)
    return ag.reduce_sum(v)


def packed_pair(t):
    return ag.convert_to_tensor([t, t + 1])


# --- dict items and attributes --------------------------------------------------------


class Box:
    pass


def dict_item_in_both_branches(a):
    d = {}
    if a > 0:
        d['b'] = a
    else:
        d['b'] = -a
    return d['b']


def dict_item_in_a_loop(xs):
    d = {}
    for x in xs:
        d['b'] = x
    return d['b']


def dict_created_in_a_loop(xs):
    for x in xs:
        d = {'a': x, 'b': x * 2}
    return d['a'] + d['b']


def attribute_in_both_branches(a):
    o = Box()
    if a > 0:
        o.v = a
    else:
        o.v = -a
    return o.v


def attribute_in_a_loop(xs):
    o = Box()
    for x in xs:
        o.v = x
    return o.v


# --- a for with a conditional return in a staged if, then more control flow ----------


def return_from_a_nested_for(a, xs):
    v = 0
    if a > 0:
        for x in xs:
            if x > 2:
                return x
        v = 1
    if v > 0:
        v = v + 1
    else:
        v = v - 1
    while v < 5:
        v += 2
    return v


def return_from_a_nested_range(a, b):
    v = 0
    if a > 0:
        for i in range(b):
            if i > 2:
                return i
    if a > 5:
        v = 1
    else:
        v = 2
    w = 0
    while w < a:
        w += v
    return w


# --- names a helper rebinds through nonlocal -----------------------------------------


def helper_binds_first(a):
    def bind(p):
        nonlocal v
        v = p
        return p
    v = 0 if a > 0 else bind(a)  # v is dead after the branch that binds it through bind
    return v


def helper_rebinds_in_a_loop(xs):
    def bind(p):
        nonlocal v
        v = p + 7
    s = 0
    for x in xs:
        v = x  # the loop's binding of v is the one bind rebinds
        bind(x)
        s += v
    return s


def helper_may_rebind(a):
    def maybe(p):
        nonlocal v
        if p > 1:  # v may keep its value: a staged `if` carries it
            v = p
    v = 0
    i = 0
    while i < a:
        maybe(i)
        i += 1
    j = 0
    while j < a:  # reads v through maybe: not the first loop's tensor
        maybe(j)
        j += 1
    return i + j


def helper_may_rebind_in_a_probed_loop(a):
    def maybe(p):
        nonlocal v
        if p > 1:
            v = p
    v = 0
    i = 0
    seen = []
    while i < a:  # the list makes the loop probe an iteration first
        maybe(i)
        seen.append(i)
        i += 1
    return i


def helper_may_rebind_after_a_return(a):
    def maybe(p):
        nonlocal v
        if p > 1:
            return p
        v = p
        return v
    v = 0
    i = 0
    while i < a:
        maybe(i)
        i += 1
    k = 0
    while k < a:
        maybe(k)
        k += 1
    return i + k


CASES = cases(
    (break_at_once, ([1, 2],)), (return_first, ([1, 2],)), (nested_enumerate, ([1, 2],)),
    (elif_return, (0,)), (elif_return, (3,)),
    (or_of_mixed_dtypes, (1,)), (or_of_mixed_dtypes, (-1,)),
    (and_of_mixed_dtypes, (3,)), (and_of_mixed_dtypes, (-2,)),
    (contains, ([1, 2, 3],)), (contains, ([2, 4, 5],)),
    (list_conditions, ([1, 2, 3],)), (list_conditions, ([1],)),
    (list_in_while_true, (3,)), (list_in_while_true, (-1,)),
    (guarded_by_the_list, ([50, 60, 70],)), (guarded_by_the_list, ([1, 2],)),
    # With no iteration, no element may be lost while the loop is traced.
    (pop_in_an_expression, (2,)), (pop_in_an_expression, (0,)),
    (pop_statement, (2,)), (pop_statement, (0,)),
    (pop_after_a_loop, (0, [1, 2])),
    (concatenated, ([1, 2],)), (packed_in_a_loop, (3,)), (packed_pair, (2.5,)),
    (dict_item_in_both_branches, (2,)), (dict_item_in_both_branches, (-2,)),
    (dict_item_in_a_loop, ([1, 2],)), (dict_created_in_a_loop, ([1, 2],)),
    (attribute_in_both_branches, (2,)), (attribute_in_a_loop, ([3, 4],)),
    (return_from_a_nested_for, (1, [1, 2, 3])), (return_from_a_nested_for, (1, [1, 2])),
    (return_from_a_nested_for, (0, [1, 2, 3])),
    (return_from_a_nested_range, (3, 5)), (return_from_a_nested_range, (7, 2)),
    (return_from_a_nested_range, (-1, 5)),
    (helper_binds_first, (1,)), (helper_binds_first, (-1,)),
    (helper_rebinds_in_a_loop, ([1, 2],)), (helper_rebinds_in_a_loop, ([],)),
    (helper_may_rebind, (3,)), (helper_may_rebind, (0,)),
    (helper_may_rebind_after_a_return, (3,)), (helper_may_rebind_after_a_return, (0,)),
)


@pytest.mark.parametrize("mode", MODES)
@CASES
def test_staged_like_python(mode, fn, args):
    check(mode, fn, *args)


# Not in CASES: XLA cannot compile a list grown in a loop (tests/xla/test_jit_staging.py).
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("a", [3, 0])
def test_a_helper_that_may_rebind_is_carried_past_the_loop_probe(mode, a):
    check(mode, helper_may_rebind_in_a_probed_loop, a)


# --- errors: the intended one, in the user's terms ------------------------------------


@pytest.mark.parametrize("mode", STAGED)
def test_a_break_shows_the_dtype_error(mode):
    with pytest.raises(TypeError, match="'v' has dtype int32 before the loop but float32"):
        run_mode(mode, break_to_float, ([1, 2],))


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_a_break_that_changes_a_dtype_is_python_unstaged(mode):
    check(mode, break_to_float, [1, 2])


def assert_all_positive(xs):
    assert xs > 0, "positive"
    return xs


@pytest.mark.parametrize("mode", ("eager", "graph", "function"))
def test_assert_needs_a_scalar_in_every_mode(mode):
    with pytest.raises(ValueError, match=r"assert: the condition must be a scalar, got a "
                                         r"tensor of shape \(2,\)"):
        run_mode(mode, assert_all_positive, ([1, 2],))


@pytest.mark.parametrize("mode", ("eager", "graph", "function"))
def test_assert_on_a_scalar_tensor(mode):
    check(mode, assert_all_positive, 3)


def scan_unused(xs):
    i = 0
    while xs[i] > 0:  # runs off the end: Python raises IndexError
        i += 1
    return xs[0]


@pytest.mark.parametrize("mode", MODES)
def test_a_loop_whose_results_are_unused_still_runs(mode):
    with pytest.raises(IndexError):
        scan_unused([1, 2])  # the oracle
    with pytest.raises(IndexError):
        run_mode(mode, scan_unused, ([1, 2],))


def test_a_loop_whose_results_are_unused_is_kept_in_the_function_graph():
    concrete = ag.function(scan_unused).get_concrete_function(ag.constant([1, 0]))
    assert [op.type for op in concrete.graph.stateful_ops] == ["While"]
    np.testing.assert_array_equal(concrete(ag.constant([1, 0])).numpy(), scan_unused([1, 0]))


# --- a variable a staged loop binds, read only where a branch says --------------------


def read_if_it_ran(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    if n > 0:  # Python reads z only here: a loop that ran no iteration is fine
        return z
    return -1


def read_in_a_loop_if_it_ran(xs, n):
    for x in xs:
        last = x
    total = 0
    i = 0
    while i < n:  # reads `last` only when it iterates
        total += last
        i += 1
    return total


def read_unconditionally(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


@pytest.mark.parametrize("mode", MODES + ("jit_compile",))
@cases((read_if_it_ran, (0,)), (read_if_it_ran, (3,)),
       (read_in_a_loop_if_it_ran, (ag.constant([], ag.int32), 0)),
       (read_in_a_loop_if_it_ran, ([4, 5], 2)))
def test_the_unbound_check_runs_where_the_value_is_read(mode, fn, args):
    check(mode, fn, *args)


@pytest.mark.parametrize("mode", ("graph", "function", "jit_compile"))
def test_a_read_after_a_loop_that_ran_no_iteration_still_fails(mode):
    with pytest.raises(UnboundLocalError):
        read_unconditionally(0)  # the oracle
    with pytest.raises(ag.InvalidArgumentError,
                       match=r"local variable 'z' is used after a staged loop that ran no "
                             r"iteration"):
        run_mode(mode, read_unconditionally, (0,))
    check(mode, read_unconditionally, 3)


@pytest.mark.xfail(strict=True, raises=Exception,
                   reason="under jax.jit the unbound check is on the value after the loop, "
                          "so it runs even when the branch that reads it is not taken "
                          "(docs/jax.md, Rejections)")
def test_under_jax_jit_a_read_in_a_branch_not_taken_still_fails():
    check("jax", read_if_it_ran, 0)


def test_under_jax_jit_a_read_in_a_branch_taken_is_the_loops_value():
    check("jax", read_if_it_ran, 3)
