"""Issue 24, family 1: a `for` target that the loop body rebinds.

Python binds the target at the start of every iteration; a rebinding in the body (even
in an inner `if`, `while` or a nested loop reusing the name) holds until the next
iteration, and after the loop the target keeps the last value it was bound to, or its
value from before the loop when no iteration ran. Converted, each of these once reset
the target to `ag__.Undefined` at the top of the loop body (`UndefinedSymbolError`,
`KeyError: Undefined('node')`, an `Undefined` reaching a call). Each function runs as
plain Python on numpy values (the oracle), then converted in every mode: Python values,
eager tensors, a Session graph, `ag.function` and `jax.jit(ag.to_graph(f))`.
"""

import os

import numpy as np
import pytest
from autograph_py.runtime import nest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode, to_numpy

ALL_MODES = MODES + ("jax",)


@pytest.fixture(autouse=True)
def converted_path(monkeypatch):
    """Plain values must run the converted code, not the function as written."""
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")


def check(mode, fn, *args):
    expected = fn(*[np.asarray(a) if isinstance(a, list) else a for a in args])
    assert_same(nest.map_structure(to_numpy, expected), run_mode(mode, fn, args))


def cases(*entries):
    return pytest.mark.parametrize(
        "fn, args", entries, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(entries)])


# --- over numbers: every mode ---------------------------------------------------------


def rebound_under_if(xs):
    s = 0.0
    x = -5.0
    for x in xs:
        if x > 1.0:
            x = x * 10.0
        s = s + x
    return s, x


def nested_loop_reuses_target(xs):
    s = 0.0
    for x in xs:
        if x > 0.0:
            for x in xs:  # noqa: B007  (the point: the outer target, rebound)
                s = s + 1.0
        s = s + x
    return s


def nested_loops_share_target(xs):
    x = 0.0
    for x in xs:
        for x in xs:  # noqa: B007  (the point: the outer target, rebound)
            pass
    return x


def rebound_in_inner_while(xs):
    s, x = 0.0, 0.0
    for x in xs:
        while x < 5.0:
            x = x + 2.0
        s = s + x
    return s, x


def while_under_if_rebinds(xs):
    out = []
    for x in xs:
        if x > 0.0:
            while x < 10.0:
                x = x * 3.0
        out.append(x)
    return out


def unbound_before_read_after(xs):
    for x in xs:
        x = x * 2.0
    return x


def enumerate_part_rebound(xs):
    for i, x in enumerate(xs):
        if x > 1.0:
            i = i * 10
    return i, x


def range_target_rebound(n):
    total = 0
    for i in range(n):
        i = i * i
        if i > 3:
            i = -i
        total = total + i
    return total, i


def rebound_then_break(xs):
    x = 0.0
    for x in xs:
        x = x + 1.0
        if x > 2.5:
            break
    return x


@pytest.mark.parametrize("mode", ALL_MODES)
@cases((rebound_under_if, ([1.0, 2.0, 3.0],)),
       (nested_loop_reuses_target, ([1.0, -1.0, 2.0],)),
       (nested_loops_share_target, ([1.0, -1.0, 2.0],)),
       (rebound_in_inner_while, ([1.0, 6.0],)),
       (while_under_if_rebinds, ([1.0, -2.0, 4.0],)),
       (rebound_under_if, ([1.0, 2.0, 0.5],)),
       (unbound_before_read_after, ([1.0, 2.0],)),
       (enumerate_part_rebound, ([1.0, 2.0],)),
       (range_target_rebound, (4,)),
       (rebound_then_break, ([1.0, 2.0, 3.0],)))
def test_rebound_loop_target(mode, fn, args):
    check(mode, fn, *args)


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_a_loop_that_ran_no_iteration_keeps_the_value_from_before(mode):
    check(mode, rebound_under_if, [])


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_a_target_unbound_before_an_empty_loop_is_unbound_after(mode):
    with pytest.raises(UnboundLocalError, match="'x'"):
        run_mode(mode, unbound_before_read_after, ([],))


# --- Python values: the issue's repros -------------------------------------------------


def issue_repro(b):
    out = []
    for x in b:
        if x > 0:
            for x in [7, 8]:  # noqa: B007  (the point: the outer target, rebound)
                pass
        out.append(x)
    return out


def path_rebound(dirs):
    out = []
    for dir in dirs:
        if dir:
            dir = os.path.join("/root", dir)
        out.append(dir)
    return out


def node_rebound(graph, parent):
    seen = {}
    for node in graph:
        while node in parent:
            node = parent[node]
        seen[node] = seen.get(node, 0) + 1
    return seen


def tuple_target_part_rebound(pairs):
    out = []
    for key, value in pairs:
        if value is None:
            key = key.upper()
        out.append(key)
    return out, key


def target_read_by_a_closure(b):
    out = []
    for x in b:
        if x:
            x = x * 2
        out.append((lambda: x)())
    return out


@cases((issue_repro, ([1, -1, 2],)),
       (path_rebound, (["a", "", "b"],)),
       (node_rebound, ([1, 2, 3, 4], {2: 1, 4: 3, 3: 1})),
       (tuple_target_part_rebound, ([("a", 1), ("b", None)],)),
       (target_read_by_a_closure, ([1, 0, 3],)))
def test_rebound_loop_target_on_python_values(fn, args):
    assert ag.to_graph(fn)(*args) == fn(*args)


def test_the_loop_body_does_not_reset_its_target():
    assert "Undefined('x')" not in ag.to_code(issue_repro)


def run_staged_on(fn, array):
    """`fn` staged over a placeholder of unknown length, run on `array`."""
    with ag.Graph().as_default():
        xs = ag.placeholder(ag.float32, shape=[None])
        result = ag.to_graph(fn)(xs)
        with ag.Session() as sess:
            return sess.run(result, {xs: array})


@pytest.mark.parametrize("fn", [rebound_under_if, nested_loop_reuses_target,
                                nested_loops_share_target, rebound_in_inner_while])
def test_a_staged_loop_that_ran_no_iteration(fn):
    empty = np.zeros(0, np.float32)
    assert_same(fn(empty), run_staged_on(fn, empty))


def test_a_target_unbound_before_a_staged_loop_that_ran_no_iteration():
    with pytest.raises(ag.errors.InvalidArgumentError, match="'x' is used after a staged "
                       "loop that ran no iteration"):
        run_staged_on(unbound_before_read_after, np.zeros(0, np.float32))
