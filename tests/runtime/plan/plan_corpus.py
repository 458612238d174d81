"""A corpus of plans covering what the plan compiler decides: the seed's examples, the
benchmarks' workloads, If/While nesting, rank-0 integers that wrap, fusion chains on large
arrays, buffer reuse (`out=`), element reads through a `scalar_view`, folding limits.

`CASES` maps a name to a builder returning a `Built` (graph, fetches, targets, feeds);
`build(name)` gives it, `plan_of(built)` its `Plan`. The reference interpreter
(tests/runtime/plan/reference.py) and each case's plan must agree on every case; the
plans' `.code` is what dump_plan_code.py writes, to compare the compiler's output across
a refactor.
"""

import inspect
import os
import sys
from typing import NamedTuple

import numpy as np
from autograph_py.runtime import nest
from autograph_py.runtime.dtypes import as_dtype
from autograph_py.runtime.plan.executor import Plan
from autograph_py.runtime.plan.passes.pipeline import OPTIONAL

import autograph_py as ag

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
for _folder in ("benchmarks", "examples"):
    if os.path.join(_ROOT, _folder) not in sys.path:
        sys.path.append(os.path.join(_ROOT, _folder))

from default_runtime import branch_loop, count_loop, make_rnn  # noqa: E402
from runtime_overhead import CHAIN_OPS, chain  # noqa: E402
from seed import square_if_positive, sum_even  # noqa: E402
from seed_comparison import collatz_steps, count_to, fibonacci  # noqa: E402
from vector_loops import running_sum_until  # noqa: E402


class Built(NamedTuple):
    graph: object
    fetches: list       # symbolic tensors
    targets: list       # ops run for their effects
    feeds: dict         # placeholder -> numpy value


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def build(name):
    return CASES[name]()


def plan_of(built, passes=OPTIONAL):
    return Plan(built.graph, built.fetches, built.targets, list(built.feeds), passes)


def _staged(fn, *arrays):
    """`ag.to_graph(fn)` on placeholders named after its parameters, in a Session graph."""
    arrays = [np.asarray(a) for a in arrays]
    params = list(inspect.signature(fn).parameters)
    graph = ag.Graph()
    with graph.as_default():
        holders = [ag.placeholder(as_dtype(a.dtype), a.shape, name=name)
                   for a, name in zip(arrays, params)]
        out = ag.to_graph(fn)(*holders)
    return Built(graph, nest.flatten(out), [], dict(zip(holders, arrays)))


def _traced(fn, *arrays):
    """The graph `ag.function(fn)` traces for `arrays`, as its ConcreteFunction plans it."""
    arrays = [np.asarray(a) for a in arrays]
    concrete = ag.function(fn).get_concrete_function(*map(ag.constant, arrays))
    graph = concrete.graph
    return Built(graph, list(concrete.outputs), list(graph.stateful_ops),
                 dict(zip(concrete.inputs, arrays)))


def _graph(build_fn, *arrays):
    """A graph built by `build_fn(*placeholders)` directly (raw ops, cond, while_loop)."""
    arrays = [np.asarray(a) for a in arrays]
    graph = ag.Graph()
    with graph.as_default():
        holders = [ag.placeholder(as_dtype(a.dtype), a.shape, name=f"in{i}")
                   for i, a in enumerate(arrays)]
        out = build_fn(*holders)
    return Built(graph, nest.flatten(out), [], dict(zip(holders, arrays)))


# --- the seed and the benchmarks ------------------------------------------------------------

@case
def seed_sum_even():
    return _staged(sum_even, np.array([10, 12, 15, 20], np.int32))


@case
def seed_sum_even_function():
    return _traced(sum_even, np.arange(100, dtype=np.int32))


@case
def seed_square_if_positive():
    return _staged(square_if_positive, np.float32(9.0))


@case
def collatz_graph():
    return _staged(collatz_steps, np.int32(27))


@case
def collatz_function():
    return _traced(collatz_steps, np.int32(27))


@case
def count_to_function():
    return _traced(count_to, np.int32(1000))


@case
def count_loop_function():
    return _traced(count_loop, np.int32(1000))


@case
def branch_loop_function():
    return _traced(branch_loop, np.int32(1000))


@case
def fibonacci_function():
    return _traced(fibonacci, np.int32(40))


@case
def rnn_function():
    rng = np.random.default_rng(0)
    h = np.zeros((1, 8), np.float32)
    xs = rng.normal(size=(5, 1, 8)).astype(np.float32)
    w, u = (rng.normal(size=(8, 8)).astype(np.float32) * 0.1 for _ in range(2))
    return _traced(make_rnn(ag), h, xs, w, u, np.int32(5))


@case
def fusion_chain_session():
    x = np.random.default_rng(0).standard_normal(1_000_000, dtype=np.float32)
    return _graph(lambda px, pc: chain(px, pc, [getattr(ag, op) for op in CHAIN_OPS]),
                  x, np.float32(0.5))


@case
def matmul_mlp_function():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(16, 32)).astype(np.float32)
    w1 = rng.normal(size=(32, 32)).astype(np.float32)
    w2 = rng.normal(size=(32, 1)).astype(np.float32)

    def loss(x, w1, w2):
        hidden = ag.nn.relu(ag.matmul(x, w1))
        return ag.reduce_mean(ag.square(ag.matmul(hidden, w2)))
    return _traced(loss, x, w1, w2)


# --- rank-0 integers, wrap bounds, folding ----------------------------------------------------

def lcg(seed, n):
    x = seed
    i = 0
    while i < n:
        x = x * 1103515245 + 12345
        i += 1
    return x


@case
def lcg_int32_wraps():
    return _traced(lcg, np.int32(7), np.int32(50))


def small_lcg(seed, n):
    x = seed
    i = 0
    while i < n:
        x = x * 77 + 13
        i += 1
    return x


@case
def lcg_int8_wraps():
    return _traced(small_lcg, np.int8(7), np.int32(50))


def scalar_mix(a, b, f):
    q = a // b          # a divisor that may be zero: the kernel on zero
    r = a % 7 + 100     # bounded: no wrap test
    s = -a * 3 - b
    t = (a > b) and not (r == 101)
    g = f * 2.0 + 1.0   # numpy float scalars
    if t:
        g = g / f
    return q, r, s, t, g


@case
def scalar_mix_function():
    return _traced(scalar_mix, np.int32(-17), np.int32(5), np.float32(1.5))


@case
def scalar_mix_uint8():
    return _traced(scalar_mix, np.uint8(200), np.uint8(3), np.float64(0.25))


@case
def long_scalar_chain():
    def add_many(x):
        for k in range(250):
            x = ag.add(x, k)
        return x
    return _graph(add_many, np.int64(1))


@case
def long_float_chain():
    def mul_many(x):
        for _ in range(80):
            x = ag.multiply(x, np.float32(1.01))
        return x
    return _graph(mul_many, np.float32(1.0))


# --- If / While nesting ----------------------------------------------------------------------

def nested_loops(n, m):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < m:
            if (i + j) % 3 == 0:
                total += i * j
            elif j > i:
                total -= 1
            j += 1
        i += 1
    return total


@case
def nested_loops_function():
    return _traced(nested_loops, np.int32(6), np.int32(5))


def loop_in_branch(x, n):
    if n > 2:
        s = x
        while n > 0:
            s = s * 1.5 + x
            n -= 1
    else:
        s = x - 1.0
    return s


@case
def loop_in_branch_function():
    return _traced(loop_in_branch, np.arange(4, dtype=np.float32), np.int32(4))


def early_exit(items):
    total = 0
    for c in items:
        if c < 0:
            break
        if c % 2 == 0:
            continue
        total += c
    return total


@case
def early_exit_function():
    return _traced(early_exit, np.array([1, 3, 4, 5, 7, -1, 9], np.int32))


def find_first(items, target):
    for i in range(ag.shape(items)[0]):
        if items[i] == target:
            return i
    return -1


@case
def return_in_loop_function():
    return _traced(find_first, np.array([4, 8, 15, 16, 23], np.int32), np.int32(16))


@case
def raw_while_with_limit():
    def loop(n, x):
        return ag.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s * 2.0 + 1.0),
                             [0, x], maximum_iterations=7)
    return _graph(loop, np.int32(20), np.ones(3, np.float32))


@case
def raw_while_condition_graph():
    def loop(n):
        return ag.while_loop(lambda i, s: ag.logical_and(i < n, s < 1000),
                             lambda i, s: (i + 1, s + i * i), [0, 0])
    return _graph(loop, np.int32(50))


@case
def raw_cond_tuple():
    def branch(p, x):
        return ag.cond(p > 0, lambda: (x * 2.0, p + 1), lambda: (x - 1.0, p - 1))
    return _graph(branch, np.int32(3), np.arange(5, dtype=np.float64))


@case
def swap_loop_vars():
    def loop(n):
        return ag.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, a + b),
                             [0, 0, 1])
    return _graph(loop, np.int32(30))


# --- arrays: out= reuse, fusion, indexing ------------------------------------------------------

@case
def out_reuse_chain():
    def ops(x, y):
        a = ag.multiply(x, 2.0)
        b = ag.add(a, y)
        c = ag.exp(ag.negative(b))
        return ag.subtract(c, ag.sqrt(ag.abs(y)))
    return _graph(ops, np.linspace(-1, 1, 100).astype(np.float32),
                  np.linspace(0, 2, 100).astype(np.float32))


@case
def out_reuse_after_view():
    def ops(x):
        a = ag.add(x, 1.0)
        b = ag.reshape(a, [10, 10])   # a view: `a` may no longer be written into
        c = ag.multiply(a, 3.0)
        return b, c
    return _graph(ops, np.arange(100, dtype=np.float64))


@case
def fusion_with_feed_reused():
    def ops(x, c):
        a = ag.add(x, c)           # a fresh buffer: the fused chain writes into it
        b = ag.multiply(a, c)
        d = ag.subtract(b, c)
        e = ag.tanh(d)
        return ag.add(e, 1.0)
    x = np.random.default_rng(2).standard_normal(300_000).astype(np.float64)
    return _graph(ops, x, np.float64(0.25))


@case
def scalar_view_reads():
    def loop(xs, flags, n):
        i = 0
        s = 0
        while i < n:
            if flags[i]:
                s += xs[i] * xs[n - 1 - i]
            i += 1
        return s
    return _traced(loop, np.arange(10, dtype=np.int32), np.arange(10) % 3 == 0,
                   np.int32(10))


@case
def strided_reads():
    def rows(m, i):
        return m[i, 1:], m[:, i], m[i, i], ag.gather(m, i), m[i][0]
    return _graph(rows, np.arange(12, dtype=np.float32).reshape(3, 4), np.int32(2))


@case
def multi_output_kernel():
    def top(x):
        values, indices = ag.math.top_k(x, k=2)
        return values[0] + 1.0, indices[1] * 2
    return _graph(top, np.array([3.0, 1.0, 4.0, 1.5], np.float32))


@case
def attrs_and_pruned_feed():
    def ops(x):
        y = ag.reshape(x, [2, 3])
        z = ag.reduce_sum(y, axis=1, keepdims=True)
        return ag.transpose(z)
    return _graph(ops, np.arange(6, dtype=np.float32))


@case
def fed_intermediate():
    graph = ag.Graph()
    with graph.as_default():
        x = ag.placeholder(ag.float32, [4], name="x")
        y = ag.multiply(x, 3.0)
        z = ag.add(y, 1.0)
    return Built(graph, [z], [], {y: np.arange(4, dtype=np.float32)})


# --- loops the vectorization pass runs as arrays (runtime/plan/vectorize/) ----------------

def float_sum_in_order(x):
    s = ag.constant(0.0, ag.float32)
    for v in x:
        if v > -1.0:
            s += v
    return s


@case
def vectorized_float_sum():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(500) * 10.0 ** rng.integers(-4, 6, 500)).astype(np.float32)
    return _traced(float_sum_in_order, x)


def halves_or_negations(x):
    out = ag.TensorArray(ag.float32, size=ag.shape(x)[0])
    for i in range(ag.shape(x)[0]):
        out = out.write(i, ag.where(x[i] > 0.0, x[i] / 2.0, -x[i]))
    return out.stack()


@case
def vectorized_tensor_array_map():
    return _traced(halves_or_negations, np.linspace(-2, 2, 37, dtype=np.float32))


def doubled_odd_rows(m):
    rows = []
    for row in m:
        if row[0] % 2 == 1:
            rows.append(row * 2)
    return ag.stack(rows)


@case
def vectorized_list_append_rows():
    return _traced(doubled_odd_rows, np.arange(24, dtype=np.int32).reshape(8, 3))


@case
def vectorized_break_on_running_sum():
    return _traced(running_sum_until, np.arange(1, 200, dtype=np.int32), np.int32(1000))


def masked_max_and_last_index(x, mask):
    best = ag.constant(-np.inf, ag.float32)
    last = -1
    for i in range(ag.shape(x)[0]):
        if mask[i]:
            best = ag.maximum(best, x[i])
            last = i
    return best, last


@case
def vectorized_masked_max_session():
    x = np.array([0.5, -0.0, 0.0, np.nan, 3.0, -7.0], np.float32)
    return _staged(masked_max_and_last_index, x, np.array([1, 1, 1, 0, 1, 0], bool))
