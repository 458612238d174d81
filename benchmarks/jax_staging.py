"""Converted Python control flow under `jax.jit` against the same algorithm hand-written
with `lax.cond` / `lax.while_loop` / `lax.scan`, in one run.

Run: `python benchmarks/run.py --only jax_staging`. The converted functions are those of
examples/jax_control_flow.py. Workloads: Collatz(27) steps (`while` with an `if`), the
index of the first element over a threshold in 100,000 floats (`for` with `return`), a
running sum with a `break` over 10,000 floats, a piecewise `if` under `jax.vmap` over
100,000 values, and the gradient of a `for` over `range(20)` with a `break` (reverse
mode through the bounded scan). Each pair is compiled once; samples are interleaved and
the ratio is converted / hand-written, same run. The hand-written versions are the same
functions rewritten in lax by hand: the same loops and the same `if`s (as `lax.cond`), a
`break` as a flag in the loop's test. Nothing is asserted: docs/jax.md gives a reference
machine's numbers.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _harness import interleaved_stats, number_for, row  # noqa: E402
from jax import lax  # noqa: E402
from jax_control_flow import (  # noqa: E402  (the user's Python: examples/)
    collatz_steps,
    first_over,
    piecewise,
    power_until_large,
    sum_until,
)

import autograph_py as ag  # noqa: E402

HAND = "hand-written lax"


# --- the same algorithms, hand-written with lax ------------------------------------------


def collatz_lax(n):
    def body(state):
        n, steps = state
        n = lax.cond(n % 2 == 0, lambda n: n // 2, lambda n: 3 * n + 1, n)
        return n, steps + 1

    return lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]


def first_over_lax(xs, threshold):
    def test(state):
        i, done, _ = state
        return (i < xs.shape[0]) & ~done

    def body(state):
        i, _, result = state
        done, result = lax.cond(xs[i] > threshold, lambda: (True, i), lambda: (False, -1))
        return i + 1, done, result

    return lax.while_loop(test, body, (0, False, -1))[2]


def sum_until_lax(xs, limit):
    def test(state):
        i, stop, _ = state
        return (i < xs.shape[0]) & ~stop

    def body(state):
        i, _, total = state
        stop, total = lax.cond(total > limit, lambda: (True, total),
                               lambda: (False, total + xs[i]))
        return i + 1, stop, total

    return lax.while_loop(test, body, (0, False, 0.0))[2]


def piecewise_lax(x):
    return lax.cond(x > 0, lambda x: jnp.sin(x) * x, lambda x: x * x * x, x)


def power_until_large_lax(x):
    def step(state, _):
        y, stopped = state
        stopped = stopped | (y > 1e6)
        return (lax.cond(stopped, lambda y: y, lambda y: y * x, y), stopped), None

    return lax.scan(step, (x, False), None, length=20)[0][0]


def _pairs():
    rng = np.random.default_rng(0)
    floats = jnp.asarray(rng.uniform(0.0, 1.0, size=100_000).astype(np.float32))
    small = jnp.asarray(rng.uniform(0.0, 1.0, size=10_000).astype(np.float32))
    batch = jnp.asarray(rng.normal(size=100_000).astype(np.float32))
    return [
        ("Collatz(27)", collatz_steps, collatz_lax, (jnp.int32(27),), jax.jit),
        ("first element over 0.99999 in 1e5", first_over, first_over_lax,
         (floats, jnp.float32(0.99999)), jax.jit),
        ("sum until 4000 over 1e4", sum_until, sum_until_lax, (small, jnp.float32(4000.0)),
         jax.jit),
        ("piecewise if under vmap, 1e5 values", piecewise, piecewise_lax, (batch,),
         lambda f: jax.jit(jax.vmap(f))),
        ("grad of for/break over range(20)", power_until_large, power_until_large_lax,
         (jnp.float32(1.5),), lambda f: jax.jit(jax.grad(f))),
    ]


def measure(repeats=9):
    rows = []
    for workload, python_fn, lax_fn, args, transform in _pairs():
        converted, hand = transform(ag.to_graph(python_fn)), transform(lax_fn)
        expected = np.asarray(hand(*args))
        np.testing.assert_allclose(np.asarray(converted(*args)), expected, rtol=1e-5)
        runners = {"converted, jax.jit": lambda f=converted, a=args: jax.block_until_ready(f(*a)),
                   HAND: lambda f=hand, a=args: jax.block_until_ready(f(*a))}
        number = max(1, min(number_for(r) for r in runners.values()))
        stats = interleaved_stats(runners, repeats=repeats, number=number)
        for mode, (seconds, spread) in stats.items():
            rows.append(row(workload, mode, seconds, spread, HAND, stats[HAND][0]))
    return rows
