"""`for i in ag.range(n)` with a tensor `n` compiles under `jit_compile=True` (issue 25,
bug 14): the staged `for` counts from the Range op's own inputs (TensorFlow's AutoGraph
does the same), so XLA gets a while loop whose trip count is a run-time value instead of
a tensor whose length is. Every case runs in every mode of tests/api/modes.py plus
jit_compile against the function run as plain Python (the oracle)."""

import jax
import numpy as np
import pytest
from autograph_py.runtime.xla.call import compiled_graph

import autograph_py as ag
from tests.api.modes import JIT_MODES, assert_same, run_mode


def sum_of_squares(n):
    s = 0
    for i in ag.range(n):
        s += i * i
    return s


def stops_early(n):
    s = 0
    for i in ag.range(n):
        if s > 20:
            break
        s += i
    return s


def triangle(n):
    s = 0
    for i in ag.range(n):
        for j in ag.range(i):  # the inner bound is the outer loop's counter
            s = s * 2 % 1000 + i * j
    return s


def between(start, limit, delta):
    s = 0
    for i in ag.range(start, limit, delta):
        s = s * 3 + i
    return s


def counted_and_indexed(n):
    s = 0
    for k, i in enumerate(ag.range(1, n)):
        s += k * i
    return s


def reads_rows(xs, n):
    s = 0
    for i in ag.range(n):
        s = s * 2 + xs[i]  # an index whose range is known only when the program runs
    return s


def skips(n):
    s = 0
    for i in ag.range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


XS = [3, 8, 1, 6, 4, 9, 2, 7]
CASES = [
    (sum_of_squares, (0,)), (sum_of_squares, (1,)), (sum_of_squares, (7,)),
    (sum_of_squares, (-3,)),
    (stops_early, (0,)), (stops_early, (3,)), (stops_early, (50,)),
    (triangle, (0,)), (triangle, (1,)), (triangle, (6,)),
    (between, (10, 0, -3)), (between, (0, 10, 3)), (between, (5, 5, 1)), (between, (2, 11, 2)),
    (between, (3, 9, -1)),
    (counted_and_indexed, (0,)), (counted_and_indexed, (6,)),
    (reads_rows, (XS, 0)), (reads_rows, (XS, 5)), (reads_rows, (XS, 9)),
    (skips, (0,)), (skips, (10,)),
]


def outcome(mode, fn, args):
    try:
        return "ok", run_mode(mode, fn, list(args))
    except IndexError:  # graph modes raise an OpError that is also an IndexError
        return IndexError, None


@pytest.mark.parametrize("mode", JIT_MODES)
@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                 enumerate(CASES)])
def test_range_loops_match_python(mode, fn, args):
    expected = outcome("python", fn, args)
    kind, value = outcome(mode, fn, args)
    assert kind == expected[0]
    if kind == "ok":
        assert_same(expected[1], value)


def test_one_compiled_loop_serves_every_trip_count():
    f = ag.function(sum_of_squares, jit_compile=True)
    for n in (0, 4, 11):
        assert int(f(ag.constant(n))) == sum(i * i for i in range(n))
    assert f.experimental_get_tracing_count() == 1
    concrete = f.get_concrete_function(ag.constant(3))
    program = str(jax.make_jaxpr(compiled_graph(concrete.graph).lowered)(
        [np.int32(3)], [], None))
    assert "while[" in program  # the trip count is a run-time value: a while loop


def test_a_zero_delta_fails_in_every_mode_as_python_range_does():
    with pytest.raises(ValueError):
        list(range(0, 5, 0))  # the oracle
    for jit in (False, True):
        with pytest.raises(ValueError, match="must not be zero"):
            ag.function(between, jit_compile=jit)(ag.constant(0), ag.constant(5),
                                                   ag.constant(0))


def power(x, n):
    y = x
    for _ in ag.range(n):
        y = y * x
    return y


@pytest.mark.parametrize("n", [0, 3])
def test_gradients_through_a_range_loop_of_run_time_length(n):
    x = ag.constant(1.5)
    for jit in (False, True):
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = ag.function(power, jit_compile=jit)(x, ag.constant(n))
        assert float(y) == pytest.approx(1.5 ** (n + 1))
        assert float(tape.gradient(y, x)) == pytest.approx((n + 1) * 1.5 ** n)


def test_a_range_used_as_a_value_still_needs_a_static_length():
    def returns_the_range(n):
        r = ag.range(n)
        s = 0
        for i in r:
            s += i
        return s, r

    with pytest.raises(TypeError, match="range's limit"):
        ag.function(returns_the_range, jit_compile=True)(ag.constant(4))
    s, r = ag.function(returns_the_range)(ag.constant(4))
    assert int(s) == 6 and r.numpy().tolist() == list(range(4))
