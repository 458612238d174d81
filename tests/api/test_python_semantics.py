"""Converted code gives Python's answers: the repros of issue 10 that were silent wrong
answers or crashes on plain Python values, each run in every mode (tests/api/modes.py)
against the function itself run as plain Python.

A repro without arguments runs no tensor at all; each has a variant taking an argument,
so that with a tensor argument the same construct is staged.
"""

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

# Repros that `autograph convert` is also checked on (tests/cli) live in its fixture file.
from tests.cli.fixtures.python_semantics import (
    closure_reads_a_variable_rebound_after_return,
    count_until_the_else_of_an_inner_while_breaks,
    log,
    make_recorder,
    record,
    return_in_if_then_while_true_break,
    take_last,
)
from tests.trace_time import append_warning, expect_trace_time


def raises_value_error():
    raise ValueError


# --- `while True: break` after a branch that returns: the loop does fall out ----------


def return_in_dead_if_then_while_true_break():
    if False:
        return 0
    else:
        while True:
            break
    return 1


# --- a helper reads a variable that a loop rebinds --------------------------------------


def helper_reads_a_loop_variable():
    def h(p):
        return v
    v = 0
    for _i in range(1):
        v = 1
    return (0, h(0))


def helper_reads_a_staged_loop_variable(n):
    def h(p):
        return v + p
    v = 0
    for _i in range(n):
        v = v + 1
    return (0, h(0))


def lambdas_made_in_a_loop_see_the_last_binding(n):
    getters = []
    for i in range(n):
        getters.append(lambda: i)  # noqa: B023 -- late binding is what is tested
    return [g() for g in getters]


# --- `if 1: while True: break` / `else: break`: the `if` does not always break ----------


def inner_while_true_break_in_a_branch():
    v = 0
    for _i in range(0, 1):
        if 1:
            while True:
                break
        else:
            break
        v = 1
    return v


def inner_while_true_break_in_a_staged_branch(n):
    v = 0
    for i in range(0, n):
        if i >= 0:
            while True:
                break
        else:
            break
        v = 1
    return v


# --- nested ifs whose return is followed by `while True: break` -------------------------


def nested_ifs_with_while_true_break(a, b):
    if 1:
        if 1:
            if False:
                return (1, 1)
            while True:
                break
        if 1:
            return (0, 0)


def nested_staged_ifs_with_while_true_break(a, b):
    if 1:
        if 1:
            if a > 100:
                return (a, b)
            while True:
                break
        if 1:
            return (a * 0, b * 0)


# --- a `return` whose value raises does not return ----------------------------------------


def return_of_a_raising_call_in_try(x):
    try:
        return raises_value_error()
    except ValueError:
        pass
    return x


# --- `break` in the `else` of an inner loop belongs to the outer loop -------------------


def break_in_the_else_of_an_inner_while(xs):
    for _x in xs:
        while 0:
            pass
        else:
            break


def break_in_the_else_of_an_inner_for(xs):
    n = 0
    for x in xs:
        for _y in range(2):
            n += 1
        else:
            if x > 1:
                break
    return n


# --- lazy operands that rebind a variable (found by tests/fuzz) ------------------------


def and_operand_calls_a_helper_that_rebinds(a, b, xs):
    v2 = a

    def h1(p):
        nonlocal v2
        v2 = v2 + p
    if v2 and h1(0):
        v0 = a if b else v2  # noqa: F841 -- reading v2 here is the repro
    return v2


def while_test_operand_calls_a_helper_that_rebinds(a, b, xs):
    v0 = 0
    v1 = a

    def h1(p):
        nonlocal v0
        v0 = v0 + p
        return v0
    w3 = 0
    while w3 < 2 and (-h1(1) <= v1 + v0 or max(-1, len(xs)) > v1 // 3):
        w3 += 1
        v0 = -v0 % 9
    return v0, w3


def ternary_branch_calls_a_helper_that_rebinds(a):
    n = 0

    def bump(k):
        nonlocal n
        n = n + k
        return n
    r = bump(2) if a > 0 else bump(-1)
    return r, n


def or_value_rebinds_with_walrus(a):
    y = 1
    r = a or (y := a + 5)
    return r, y


# --- names bound by `:=` in a test (found by tests/fuzz) --------------------------------


def if_test_binds_what_the_body_rebinds(a):
    v1 = a
    if (v0 := v1):
        v0 = v0 or 0
    return v1


def while_test_binds_and_the_body_returns(a, b):
    v0 = a
    w2 = 0
    while w2 < 3 and (v0 := v0 + a) > b:
        w2 += 1
        if w2 < b:
            return w2
        v0 -= a
    return v0


def walrus_in_the_first_operand(a, b):
    v2 = b
    r = 0
    if (v2 := (v2 + 3) % 5) > a and a <= v2:
        r = v2
    return r, v2


def walrus_in_a_comparison_chain(a):
    c = 0
    if a < (c := a * 2) <= 6 < (c := c + 10):
        a = a + 1
    return a, c


def walrus_on_the_right_of_in(a):
    y = []
    r = a in (y := [a, 2])
    return r, len(y)


def helper_called_through_a_lowered_operator(a, xs):
    v2 = 1

    def h1(p):
        nonlocal v2
        v2 = v2 + p
        return v2
    v1 = 4
    while v1:
        while 1 and h1(a) == 0:
            pass
        v1 = xs[0] * 0
    return v1, v2


def mixed_operands_in_a_test_that_rebinds(a, b):
    v1 = b
    w2 = 0
    while w2 < 1 and ((v1 := (v1 + a) % 6) > b or abs(-2)):
        w2 += 1
    return w2, v1


def while_test_binds_and_the_body_breaks(a):
    v2 = 0
    w1 = a
    while (w1 := (w1 + 1)) <= 4:
        v2 -= 2
        break
    return v2, w1


def unread_walrus_in_a_while_test_in_a_staged_loop(a, xs):
    v1 = 0
    v2 = a
    for _i1 in range(len(xs)):
        while (v1 := v2):  # noqa: F841 -- v1 is never read: that is the case
            return 0
    return -1


def unread_walrus_in_a_lazy_operand(a, xs):
    if sum(xs) or (v1 := a):  # noqa: F841 -- v1 is never read: that is the case
        a = a + 1
    return a


def walrus_that_may_not_run_then_read(a):
    v1 = a
    w1 = 0
    r = 0
    while True:
        w1 += 1
        if w1 > 2:
            break
        if a > 5 and (v1 := w1):
            r = r + 1
        elif v1:
            r = r + v1
    return r, v1


# A lowered operator moves its test and operands into a new function: a `:=` there
# must still bind the user's name, whether it is read afterwards or not.
def walrus_in_the_test_of_a_lowered_ternary(a):
    v0 = 1
    v2 = a

    def h(p):
        nonlocal v2
        v2 = p
        return p
    r = h(1) if (v0 := a + 1) else a
    return r, v0, v2


def unread_walrus_reads_itself_in_lowered_operators(a):
    v1 = a
    v2 = 0

    def h(p):
        nonlocal v2
        v2 = v2 + p
        return p
    r = h(a) and (v1 := v1 + 1)
    s = h(2) if (v1 := v1 - 1) else a
    return r, s, v2


def walrus_in_a_comprehension_of_a_lowered_operand(a):
    v2 = 0
    c = 0

    def h(p):
        nonlocal v2
        v2 = p
        return p
    r = h(a) or sum([c := c + p for p in [1, 2]])
    return r, c, v2


# --- a closure reads a name the function has not bound yet: Python's NameError ---------


def closure_reads_before_the_branch_binds(x):
    def h():
        return v
    if x > 0:
        try:
            r = h()
        except NameError:  # v is not bound yet, even in a staged branch
            r = -1
        v = x
    else:
        r = 0
        v = 0
    return r + v


def closure_reads_a_name_one_branch_binds(x):
    def h():
        return v
    if x > 0:
        v = x
    return h()


# --- closures called where they are made, or passed on --------------------------------


def closure_made_in_a_loop_reads_the_last_binding(n):
    v = 0
    s = 0
    i = 0
    while i < n:
        g = lambda: v  # noqa: E731, B023 (it reads v where it is called: the last binding)
        s = s + g()
        v = i
        i += 1
    return s


def closure_called_in_a_loop_that_binds_what_it_reads(n):
    g = lambda: v  # noqa: E731
    s = 0
    for i in range(n):
        v = i * 2  # the binding g reads: one, shared with the loop's body
        s = s + g()
    return s


def closure_made_in_a_loop_reads_its_target(xs):
    s = 0
    for x in xs:
        g = lambda p: p + x  # noqa: E731, B023
        s = s + g(1)
    return s


def call_it(fn):
    return fn()


def closure_passed_on_in_a_loop(n):
    v = 0
    s = 0
    for i in range(n):
        v = v + i
        s = s + call_it(lambda: v)  # noqa: B023 (it escapes: it may run anywhere)
    return s


CASES = [
    (return_in_dead_if_then_while_true_break, [()]),
    (return_in_if_then_while_true_break, [(3,), (200,)]),
    (helper_reads_a_loop_variable, [()]),
    (helper_reads_a_staged_loop_variable, [(0,), (3,)]),
    (inner_while_true_break_in_a_branch, [()]),
    (inner_while_true_break_in_a_staged_branch, [(0,), (2,)]),
    (nested_ifs_with_while_true_break, [(0, 0)]),
    (nested_staged_ifs_with_while_true_break, [(0, 0), (200, 5)]),
    (closure_reads_a_variable_rebound_after_return, [(2,), (-2,)]),
    (return_of_a_raising_call_in_try, [(3,)]),
    (break_in_the_else_of_an_inner_while, [([1, 2],), ([],)]),
    (count_until_the_else_of_an_inner_while_breaks, [([1, 2],), ([],)]),
    (break_in_the_else_of_an_inner_for, [([1, 2, 3],), ([0],)]),
    (and_operand_calls_a_helper_that_rebinds, [(0, 0, []), (3, 1, [1]), (2, 0, [])]),
    (while_test_operand_calls_a_helper_that_rebinds, [(0, 0, []), (4, 1, [1, 2]),
                                                      (-3, 0, [5])]),
    (ternary_branch_calls_a_helper_that_rebinds, [(1,), (-1,)]),
    (or_value_rebinds_with_walrus, [(0,), (3,)]),
    (if_test_binds_what_the_body_rebinds, [(0,), (2,)]),
    (while_test_binds_and_the_body_returns, [(0, 0), (1, 5), (2, -1)]),
    (walrus_in_the_first_operand, [(0, 0), (1, 4), (3, 1)]),
    (walrus_in_a_comparison_chain, [(1,), (3,), (-5,)]),
    (walrus_on_the_right_of_in, [(2,), (3,)]),
    (helper_called_through_a_lowered_operator, [(0, [1, 2]), (-1, [3])]),
    (mixed_operands_in_a_test_that_rebinds, [(0, 0), (1, 4), (3, 1)]),
    (while_test_binds_and_the_body_breaks, [(0,), (9,)]),
    (unread_walrus_in_a_while_test_in_a_staged_loop, [(0, [1, 2]), (3, [1])]),
    (unread_walrus_in_a_lazy_operand, [(0, [0]), (2, [0]), (2, [1])]),
    (walrus_that_may_not_run_then_read, [(0,), (3,), (7,)]),
    (walrus_in_the_test_of_a_lowered_ternary, [(-1,), (2,)]),
    (unread_walrus_reads_itself_in_lowered_operators, [(0,), (1,), (3,)]),
    (walrus_in_a_comprehension_of_a_lowered_operand, [(0,), (2,)]),
    (closure_reads_before_the_branch_binds, [(2,), (-2,)]),
    (closure_made_in_a_loop_reads_the_last_binding, [(3,), (0,)]),
    (closure_called_in_a_loop_that_binds_what_it_reads, [(3,), (0,)]),
    (closure_made_in_a_loop_reads_its_target, [([1, 2, 3],), ([],)]),
    (closure_passed_on_in_a_loop, [(3,), (0,)]),
]


def _params():
    for fn, arg_tuples in CASES:
        for i, args in enumerate(arg_tuples):
            for mode in MODES:
                yield pytest.param(fn, args, mode, id=f"{fn.__name__}-{i}-{mode}")


@pytest.mark.parametrize("fn, args, mode", list(_params()))
def test_converted_matches_python(fn, args, mode):
    assert_same(fn(*args), run_mode(mode, fn, args))


@pytest.mark.parametrize("n", [0, 3])
def test_lambdas_made_in_a_loop_see_the_last_binding(n):
    # Python's closures share the loop variable: every getter returns its last value.
    assert ag.to_graph(lambdas_made_in_a_loop_see_the_last_binding)(n) == \
        lambdas_made_in_a_loop_see_the_last_binding(n)


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_a_closure_reading_an_unbound_name_raises_pythons_name_error(mode):
    assert_same(closure_reads_a_name_one_branch_binds(2),
                run_mode(mode, closure_reads_a_name_one_branch_binds, (2,)))
    with pytest.raises(NameError) as expected:
        closure_reads_a_name_one_branch_binds(-2)
    with pytest.raises(NameError) as converted:
        run_mode(mode, closure_reads_a_name_one_branch_binds, (-2,))
    # Python's error for a free variable: a NameError, not an UnboundLocalError.
    assert not isinstance(converted.value, UnboundLocalError)
    assert str(converted.value) == str(expected.value)


@pytest.mark.parametrize("mode", ("graph", "function"))
def test_a_closure_reading_a_name_one_staged_branch_binds_is_the_staging_rule(mode):
    with pytest.raises(ValueError, match="'v' is defined in only one branch of the `if`"):
        run_mode(mode, closure_reads_a_name_one_branch_binds, (-2,))


# --- list methods on a list the function does not own ---------------------------------

def _outer_appends(mode, fn, name):
    """The warnings of appending to a list from outside `fn`: given while a graph is built
    (the append runs once per trace there, so the runtime says so; on purpose here)."""
    return [append_warning(fn, name)] if mode in ("graph", "function") else []


@pytest.mark.parametrize("mode", MODES)
def test_append_and_pop_on_a_global_list(mode):
    # The lists hold Python ints again before each call: in a graph mode, what the
    # converted code appends is a tensor of the graph built (a Python side effect).
    log[:] = [5]
    expected_recorded = record(1)
    log[:] = [5]
    expected_taken = take_last(1)
    log[:] = [5]
    with expect_trace_time(*_outer_appends(mode, record, "log")):
        assert_same(expected_recorded, run_mode(mode, record, (1,)))
    assert len(log) == 2 and log[0] == 5
    log[:] = [5]
    assert_same(expected_taken, run_mode(mode, take_last, (1,)))
    assert log == []


@pytest.mark.parametrize("mode", MODES)
def test_append_and_pop_on_a_closure_list(mode):
    seen, remember, _ = make_recorder()
    expected_remembered = remember(2)
    _, _, forget = make_recorder()
    expected_forgotten = forget(1)
    seen, remember, _ = make_recorder()
    with expect_trace_time(*_outer_appends(mode, remember, "seen")):
        assert_same(expected_remembered, run_mode(mode, remember, (2,)))
    assert len(seen) == 2 and seen[0] == 10
    seen, _, forget = make_recorder()
    assert_same(expected_forgotten, run_mode(mode, forget, (1,)))
    assert seen == []


def test_a_global_list_is_not_rebound_in_to_code():
    code = ag.to_code(record)
    # Appended in place (ag__.outer_list_append warns while a graph is built), never rebound.
    assert "(log, x" in code and "log =" not in code and "log :=" not in code


# --- the user's variables are the user's, whatever they are called ------------------------


def counts_in_halves(xs):
    break_count = 0
    for x in xs:
        if x > 0:
            break_count = x > 1
    return break_count


def keeps_a_retval(xs):
    retval_x = 0
    for x in xs:
        retval_x = x > 1
    return retval_x


@pytest.mark.parametrize("fn, name", [(counts_in_halves, "break_count"),
                                      (keeps_a_retval, "retval_x")])
def test_a_staged_error_names_the_users_variable_as_such(fn, name):
    with ag.Graph().as_default():
        xs = ag.placeholder(ag.int32, shape=(None,))
        with pytest.raises(TypeError) as info:
            ag.to_graph(fn)(xs)
    message = str(info.value)
    assert f"'{name}'" in message
    assert "flag" not in message and "the return value" not in message


def returns_a_pair_or_a_number(x):
    if x > 0:
        if x > 100:
            return (x, x)
    return x


def test_a_staged_error_describes_an_invented_symbol_in_the_users_terms():
    with ag.Graph().as_default():
        x = ag.placeholder(ag.int32, shape=())
        with pytest.raises(ValueError) as info:
            ag.to_graph(returns_a_pair_or_a_number)(x)
    message = str(info.value)
    assert "the return value" in message
    assert "retval_" not in message and "<" not in message

