"""Issue 24, family 4: annotated locals in converted functions.

An annotated assignment inside an `if`, `for` or `while` once stayed annotated in the
closure made of that block, which declares the name `nonlocal`: `SyntaxError:
annotated name 'x' can't be nonlocal`. A bare annotation (`x: float`) counted as a
binding, so a staged statement read the name before anything bound it. Each function
runs as plain Python (the oracle), then converted in every mode: Python values, eager
tensors, a Session graph, `ag.function` and `jax.jit(ag.to_graph(f))`.
"""

import ast
from datetime import timezone, tzinfo

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

ALL_MODES = MODES + ("jax",)


@pytest.fixture(autouse=True)
def converted_path(monkeypatch):
    """Plain values must run the converted code, not the function as written."""
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")


def cases(*entries):
    return pytest.mark.parametrize(
        "fn, args", entries, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(entries)])


# --- over numbers: every mode ---------------------------------------------------------


def annotated_in_both_branches(c):
    if c > 0.0:
        x: float = 1.0
    else:
        x: float = 2.0
    return x


def annotated_before_assigned_in_a_branch(c):
    x: float = 0.0
    if c > 0.0:
        x = 5.0
    return x


def declared_then_assigned_in_both_branches(c):
    x: float
    if c > 0.0:
        x = c * 2.0
    else:
        x = -c
    return x


def annotated_accumulator(xs):
    s: float = 0.0
    for v in xs:
        s: float = s + v
    return s


def annotated_in_a_loop_under_if(xs):
    s: float = 0.0
    for v in xs:
        if v > 1.0:
            t: float = v * 2.0
        else:
            t: float = v
        s = s + t
    return s


def annotated_in_a_while(n):
    i: int = 0
    total: int = 0
    while i < n:
        total: int = total + i
        i: int = i + 1
    return total


@pytest.mark.parametrize("mode", ALL_MODES)
@cases((annotated_in_both_branches, (1.0,)),
       (annotated_in_both_branches, (-1.0,)),
       (annotated_before_assigned_in_a_branch, (1.0,)),
       (annotated_before_assigned_in_a_branch, (-1.0,)),
       (declared_then_assigned_in_both_branches, (3.0,)),
       (declared_then_assigned_in_both_branches, (-3.0,)),
       (annotated_accumulator, ([1.0, 2.0, 3.0],)),
       (annotated_in_a_loop_under_if, ([1.0, 2.0, 3.0],)),
       (annotated_in_a_while, (4,)))
def test_annotated_local(mode, fn, args):
    assert_same(fn(*args), run_mode(mode, fn, args))


# --- Python values ---------------------------------------------------------------------


def issue_repro(flag, offsets):
    tz: tzinfo | None = None
    total: int = 0
    for off in offsets:
        if flag:
            tz: tzinfo | None = timezone.utc
            total: int = total + off
    return tz, total


def declared_only_in_a_branch(flag):
    x = 1
    if flag:
        x: int
    return x


def declared_in_a_loop_read_from_before(xs):
    y = 0
    out = []
    for _ in xs:
        y: int
        out.append(y)
    return out


def annotated_attribute_in_a_branch(flag):
    box = type("Box", (), {})()
    box.v = 0
    if flag:
        box.v: int = 3
    return box.v


def parenthesized_name_in_a_branch(flag):
    x = 0
    if flag:
        (x): int = 7
    return x


def annotated_in_try_in_a_loop(texts):
    out = []
    for text in texts:
        try:
            n: int = int(text)
        except ValueError:
            n: int = -1
        out.append(n)
    return out, n


def annotated_in_a_nested_function(flag):
    if flag:
        def inner():
            z: int = 4
            if z > 3:
                z: int = 5
            return z
        return inner()
    return 0


@pytest.mark.parametrize("flag", [True, False])
@cases((issue_repro, ([1, 2],)),
       (declared_only_in_a_branch, ()),
       (annotated_attribute_in_a_branch, ()),
       (parenthesized_name_in_a_branch, ()),
       (annotated_in_a_nested_function, ()))
def test_annotated_local_on_python_values(fn, args, flag):
    assert ag.to_graph(fn)(flag, *args) == fn(flag, *args)


@cases((declared_in_a_loop_read_from_before, ([1, 2],)),
       (annotated_in_try_in_a_loop, (["1", "x", "3"],)))
def test_annotated_local_in_a_loop_on_python_values(fn, args):
    assert ag.to_graph(fn)(*args) == fn(*args)


SHADOWED = 99


def declared_never_bound(flag):
    if flag:
        SHADOWED: int
    return SHADOWED  # noqa: F821  (local to the function, never bound: not the global)


def test_a_name_only_declared_stays_local_and_unbound():
    for flag in (True, False):
        with pytest.raises(UnboundLocalError, match="'SHADOWED'"):
            declared_never_bound(flag)
        with pytest.raises(UnboundLocalError, match="'SHADOWED'"):
            ag.to_graph(declared_never_bound)(flag)


def test_to_code_keeps_the_annotations_outside_the_closures():
    code = ag.to_code(issue_repro)
    annotated = {node.target.id for node in ast.walk(ast.parse(code))
                 if isinstance(node, ast.AnnAssign)}
    assert annotated == {"tz", "total"}
    assert "tz = timezone.utc" in code
    assert "total = total + off" in code
