"""if_stmt / while_stmt / for_stmt in three modes against plain-Python oracles.

The functions under test are written as the converters write them: bodies are closures
writing through `nonlocal`, with get_state/set_state over the symbols they modify.
"""

import autograph_py.runtime.operators as ag__
import numpy as np
import pytest
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from hypothesis import given, settings
from hypothesis import strategies as st
from test_operators_support import assert_three_modes, in_three_modes, staged

# --- if -----------------------------------------------------------------------------------


def square_if_positive_oracle(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


def square_if_positive(x):
    def get_state():
        return (x,)

    def set_state(values):
        nonlocal x
        (x,) = values

    def if_body():
        nonlocal x
        x = x * x

    def else_body():
        nonlocal x
        x = 0.0

    ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ("x",))
    return x


@pytest.mark.parametrize("x", [9.0, -9.0])
def test_if_matches_python(x):
    assert_three_modes(square_if_positive, square_if_positive_oracle, x)


def defined_in_one_branch(x):
    y = ag__.Undefined("y")

    def get_state():
        return (y,)

    def set_state(values):
        nonlocal y
        (y,) = values

    def if_body():
        nonlocal y
        y = x + 1.0

    ag__.if_stmt(x > 0, if_body, lambda: None, get_state, set_state, ("y",))
    return ag__.ld(y)


def test_if_variable_defined_in_one_branch():
    assert defined_in_one_branch(2.0) == 3.0  # Python: fine on the defining path
    with pytest.raises(UnboundLocalError, match="'y'"):
        defined_in_one_branch(-2.0)
    with pytest.raises(ValueError, match="'y' is defined in only one branch"):
        staged(defined_in_one_branch, 2.0)


def early_return(x, negate_first):
    """`if x > 0: return x` then `return -x`, lowered with a do_return flag; with
    `negate_first` the returning branch is the else branch."""
    do_return, retval_ = False, ag__.UndefinedReturnValue()

    def get_state():
        return do_return, retval_

    def set_state(values):
        nonlocal do_return, retval_
        do_return, retval_ = values

    def returns():
        nonlocal do_return, retval_
        do_return, retval_ = True, x

    def falls_through():
        pass

    if negate_first:
        ag__.if_stmt(ag__.not_(x > 0), falls_through, returns, get_state, set_state,
                     ("do_return", "retval_"))
    else:
        ag__.if_stmt(x > 0, returns, falls_through, get_state, set_state,
                     ("do_return", "retval_"))

    def tail():
        nonlocal retval_
        retval_ = -x

    ag__.if_stmt(ag__.not_(do_return), tail, lambda: None, get_state, set_state,
                 ("do_return", "retval_"))
    return retval_


@pytest.mark.parametrize("negate_first", [False, True])
@pytest.mark.parametrize("x", [3.0, -3.0])
def test_if_with_a_return_in_one_branch(x, negate_first):
    assert_three_modes(lambda v: early_return(v, negate_first), abs, x)


def test_if_eager_condition_must_hold_one_value():
    with pytest.raises(TypeError, match="single value"):
        ag__.if_stmt(constant([True, False]), lambda: None, lambda: None, lambda: (),
                     lambda v: None, ())


def test_if_branches_with_different_dtypes_name_the_variable():
    def build(x):
        y = 0

        def set_state(values):
            nonlocal y
            (y,) = values

        def if_body():
            nonlocal y
            y = 1.5

        ag__.if_stmt(x > 0, if_body, lambda: None, lambda: (y,), set_state, ("y",))
        return y

    with pytest.raises(TypeError, match="'y'"):
        staged(build, 1)


def test_if_appending_to_a_list_in_one_branch_makes_it_a_tensor_list():
    def build(x):
        out = [1.0]

        def set_state(values):
            nonlocal out
            (out,) = values

        def if_body():
            nonlocal out
            out = ag__.list_append(out, x)

        ag__.if_stmt(x > 0, if_body, lambda: None, lambda: (out,), set_state, ("out",))
        return ag__.list_stack(out)

    for x, expected in ((2.0, [1.0, 2.0]), (-2.0, [1.0])):
        for result in in_three_modes(build, x):
            np.testing.assert_array_equal(result, expected)


# --- while ---------------------------------------------------------------------------------


def sum_below_oracle(n):
    s, i = 0, 0
    while i < n:
        s += i
        i += 1
    return s


def sum_below(n, opts=None):
    s, i = 0, 0

    def get_state():
        return s, i

    def set_state(values):
        nonlocal s, i
        s, i = values

    def body():
        nonlocal s, i
        s = s + i
        i = i + 1

    ag__.while_stmt(lambda: i < n, body, get_state, set_state, ("s", "i"), opts or {})
    return s


@pytest.mark.parametrize("n", [0, 1, 7])
def test_while_matches_python(n):
    assert_three_modes(sum_below, sum_below_oracle, n)


def test_while_maximum_iterations_in_every_mode():
    assert in_three_modes(lambda n: sum_below(n, {"maximum_iterations": 3}), 10) == \
        (3, 3, 3)


def test_while_dtype_change_names_the_variable():
    def build(x):
        v = 0

        def set_state(values):
            nonlocal v
            (v,) = values

        def body():
            nonlocal v
            v = m.multiply(constant(0.5), 2.0)

        ag__.while_stmt(lambda: m.less(v, x), body, lambda: (v,), set_state, ("v",), {})
        return v

    with pytest.raises(TypeError, match="'v'.*int32.*float32"):
        staged(build, 3)


def test_while_condition_that_becomes_a_tensor_stages_the_rest():
    # `i` starts as a Python int; the body makes it a tensor, so the second test is one.
    def build(step):
        i, trips = 0, 0

        def set_state(values):
            nonlocal i, trips
            i, trips = values

        def body():
            nonlocal i, trips
            i = m.add(step, i)
            trips = trips + 1

        ag__.while_stmt(lambda: i < 10, body, lambda: (i, trips), set_state, ("i", "trips"),
                        {})
        return i, trips

    assert staged(build, 3) == (12, 4)


def loop_carried_undefined(n):
    y, i = ag__.Undefined("y"), 0

    def set_state(values):
        nonlocal y, i
        y, i = values

    def body():
        nonlocal y, i
        y = ag__.ld(y) + 1
        i = i + 1

    ag__.while_stmt(lambda: i < n, body, lambda: (y, i), set_state, ("y", "i"), {})
    return y


def test_while_reading_an_undefined_variable_names_it():
    assert isinstance(loop_carried_undefined(0), ag__.Undefined)  # Python: never read
    with pytest.raises(ValueError, match="'y' must be defined before the loop"):
        staged(loop_carried_undefined, 3)


def test_while_loop_local_temporary_may_start_undefined():
    def build(n):
        tmp, s, i = ag__.Undefined("tmp"), 0, 0

        def set_state(values):
            nonlocal tmp, s, i
            tmp, s, i = values

        def body():
            nonlocal tmp, s, i
            tmp = i * 2
            s = s + tmp
            i = i + 1

        ag__.while_stmt(lambda: i < n, body, lambda: (tmp, s, i), set_state,
                        ("tmp", "s", "i"), {})
        return s

    assert_three_modes(build, lambda n: sum(2 * i for i in range(n)), 4)


def nested_collatz(n):
    steps = 0

    def set_state(values):
        nonlocal n, steps
        n, steps = values

    def body():
        nonlocal n, steps

        def halve():
            nonlocal n
            n = n // 2

        def triple():
            nonlocal n
            n = 3 * n + 1

        ag__.if_stmt(n % 2 == 0, halve, triple, lambda: (n,),
                     lambda v: set_state((v[0], steps)), ("n",))
        steps = steps + 1

    ag__.while_stmt(lambda: n > 1, body, lambda: (n, steps), set_state, ("n", "steps"), {})
    return steps


def collatz_oracle(n):
    steps = 0
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("n", [1, 6, 27])
def test_nested_if_inside_while(n):
    assert_three_modes(nested_collatz, collatz_oracle, n)


class Config:
    scale = 2


def test_non_tensor_state_passes_through_or_is_named():
    def build(n, replace):
        cfg, i = Config(), 0

        def set_state(values):
            nonlocal cfg, i
            cfg, i = values

        def body():
            nonlocal cfg, i
            i = i + cfg.scale
            if replace:
                cfg = Config()

        ag__.while_stmt(lambda: i < n, body, lambda: (cfg, i), set_state, ("cfg", "i"), {})
        return i

    assert staged(lambda n: build(n, False), 5) == 6
    with pytest.raises(TypeError, match="'cfg' is a Config before the loop"):
        staged(lambda n: build(n, True), 5)


# --- for -----------------------------------------------------------------------------------


def sum_until_negative_oracle(xs):
    s = 0.0
    for x in xs:
        if x < 0:
            break
        s += x
    return s


def sum_until_negative(xs):
    """The loop after break lowering: a `stop` flag and an extra_test."""
    s, stop = 0.0, False

    def get_state():
        return s, stop

    def set_state(values):
        nonlocal s, stop
        s, stop = values

    def body(x):
        nonlocal s, stop

        def brk():
            nonlocal stop
            stop = True

        def add():
            nonlocal s
            s = s + x

        ag__.if_stmt(x < 0, brk, lambda: None, get_state, set_state, ("s", "stop"))
        ag__.if_stmt(ag__.not_(stop), add, lambda: None, get_state, set_state,
                     ("s", "stop"))

    ag__.for_stmt(xs, lambda: ag__.not_(stop), body, get_state, set_state, ("s", "stop"), {})
    return s


@pytest.mark.parametrize("xs", [[1.0, 2.0, -1.0, 5.0], [1.0, 2.0], [-1.0], []])
def test_for_with_break_over_tensor(xs):
    if not xs:  # an empty list has no dtype to make a placeholder of
        assert sum_until_negative(xs) == 0.0
        return
    assert_three_modes(sum_until_negative, sum_until_negative_oracle, xs)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 9).map(float), min_size=1, max_size=6))
def test_for_with_break_property(xs):
    assert_three_modes(sum_until_negative, sum_until_negative_oracle, xs)


def test_for_break_on_a_tensor_condition_in_a_python_loop_stages_the_rest():
    def build(limit):
        return sum_until_negative([1.0, 2.0, m.subtract(constant(1.0), limit), 4.0])

    assert staged(build, 0.0) == 8.0
    assert staged(build, 5.0) == 3.0


def test_for_does_not_take_an_item_after_the_stop_test_fails():
    taken = []

    def items():
        for i in range(5):
            taken.append(i)
            yield i

    stop = False

    def body(i):
        nonlocal stop
        stop = i == 1

    ag__.for_stmt(items(), lambda: not stop, body, lambda: (), lambda v: None, (), {})
    assert taken == [0, 1]


def accumulate(iterable_fn):
    """for item in iterable_fn(...): s += f(item), as converted code."""

    def run(*args):
        s = 0

        def set_state(values):
            nonlocal s
            (s,) = values

        def body(item):
            nonlocal s
            s = s + item

        ag__.for_stmt(iterable_fn(*args), None, body, lambda: (s,), set_state, ("s",), {})
        return s

    return run


@pytest.mark.parametrize("args", [(5,), (2, 9), (9, 2, -2), (3, 3)])
def test_for_over_range_with_symbolic_bounds(args):
    assert_three_modes(accumulate(lambda *a: ag__.range_(*a)), lambda *a: sum(range(*a)),
                       *args)


def test_for_over_enumerate_and_zip_of_symbolic_tensors():
    def weighted(xs, ys):
        total = 0

        def set_state(values):
            nonlocal total
            (total,) = values

        def body(item):
            nonlocal total
            i, (x, y) = item
            total = total + i * x * y

        ag__.for_stmt(ag__.enumerate_(ag__.zip_(xs, ys), 1), None, body, lambda: (total,),
                      set_state, ("total",), {})
        return total

    def oracle(xs, ys):
        return sum(i * x * y for i, (x, y) in enumerate(zip(xs, ys), 1))

    assert_three_modes(weighted, oracle, [1, 2, 3, 4], [5, 6, 7])


def test_for_appending_to_a_list_then_stacking():
    def squares(xs):
        out = []

        def set_state(values):
            nonlocal out
            (out,) = values

        def body(x):
            nonlocal out
            out = ag__.list_append(out, x * x)

        ag__.for_stmt(xs, None, body, lambda: (out,), set_state, ("out",), {})
        return ag__.list_stack(out)

    python, eager, graph = in_three_modes(squares, [1, 2, 3])
    for result in (python, eager, graph):
        np.testing.assert_array_equal(result, [1, 4, 9])


def test_for_popping_from_a_list_in_a_staged_loop():
    def build(n):
        stack, popped = [10, 20, 30], 0

        def set_state(values):
            nonlocal stack, popped
            stack, popped = values

        def body(_):
            nonlocal stack, popped
            stack, item = ag__.list_pop(stack)
            popped = popped + item

        ag__.for_stmt(ag__.range_(n), None, body, lambda: (stack, popped), set_state,
                      ("stack", "popped"), {})
        return popped, ag__.list_stack(stack)

    popped, rest = staged(build, 2)
    assert popped == 50
    np.testing.assert_array_equal(rest, [10])


def test_for_over_a_scalar_tensor_is_an_error():
    with Graph().as_default():
        with pytest.raises(TypeError, match="scalar"):
            ag__.for_stmt(placeholder("float32", []), None, lambda x: None, lambda: (),
                          lambda v: None, (), {})
