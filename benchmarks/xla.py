"""`ag.function(jit_compile=True)` against the numpy runtime and hand-written `jax.jit`
(issue 13), in one run.

Run: `python benchmarks/xla.py [--json PATH]` (or through `benchmarks/run.py`). Workloads:
Collatz(27) steps, the seed's `sum_even` over 10,000 elements, a 20-step RNN as a staged
loop (hidden size 64), a 50-op elementwise chain on 1e6 floats, an MLP forward and
backward at two sizes (`MLP_SIZES`), each written both ways (a GradientTape around the
compiled call, then the tape inside the compiled function: the whole step one XLA
program; `jax.value_and_grad` by hand), and a cache-hit call of a trivial function. The
hand-written JAX versions are what a JAX user writes for the same algorithm
(`lax.while_loop` / `lax.fori_loop` for the loops). Rows give medians of interleaved
samples; ratios are to hand-written `jax.jit`, same run. Nothing is asserted: the
targets and a reference machine's numbers are in docs/performance.md.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from _harness import interleaved_stats, number_for, row, run_module  # noqa: E402
from jax import lax  # noqa: E402
from seed import sum_even  # noqa: E402  (the article's function)
from seed_comparison import collatz_steps  # noqa: E402

import autograph_py as ag  # noqa: E402

HIDDEN, STEPS, CHAIN_OPS = 64, 20, 50


def rnn(h, xs, w, u, n):
    i = 0
    while i < n:
        h = ag.tanh(ag.matmul(h, w) + ag.matmul(xs[i], u))
        i += 1
    return h


def chain(x):
    for _ in range(CHAIN_OPS // 2):  # Python loop: unrolled into 50 graph ops
        x = x * 1.0001
        x = x + 0.5
    return x


def trivial(x):
    return x + 1.0


def _jax_collatz(n):
    def body(state):
        n, steps = state
        return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1

    return lax.while_loop(lambda s: s[0] > 1, body, (n, jnp.int32(0)))[1]


def _jax_sum_even(items):
    def body(i, s):
        c = items[i]
        return jnp.where(c % 2 > 0, s, s + c)

    return lax.fori_loop(0, items.shape[0], body, jnp.int32(0))


def _jax_rnn(h, xs, w, u, n):
    return lax.fori_loop(0, n, lambda i, h: jnp.tanh(h @ w + xs[i] @ u), h)


def _jax_chain(x):
    for _ in range(CHAIN_OPS // 2):
        x = x * 1.0001
        x = x + 0.5
    return x


# (batch, inputs, hidden): the small MLP, then the one benchmarks/default_runtime.py
# runs against TensorFlow
MLP_SIZES = [(128, 32, 64), (128, 256, 256)]


def _mlp_workloads(rng, batch_size, inputs, hidden):
    """The MLP forward + backward written both ways, with hand-written JAX's twin."""
    batch = rng.normal(size=(batch_size, inputs)).astype(np.float32)
    w1 = (rng.normal(size=(inputs, hidden)) / np.sqrt(inputs)).astype(np.float32)
    w2 = (rng.normal(size=(hidden, 1)) / np.sqrt(hidden)).astype(np.float32)
    variables = [ag.Variable(w1), ag.Variable(w2)]

    def tape_around_the_call(jit):
        @ag.function(jit_compile=jit)
        def loss(x):
            hidden = ag.nn.relu(ag.matmul(x, variables[0]))
            return ag.reduce_mean(ag.square(ag.matmul(hidden, variables[1])))

        x = ag.constant(batch)

        def step():
            with ag.GradientTape() as tape:
                value = loss(x)
            return value, tape.gradient(value, variables)

        return step

    def tape_inside_the_function(jit):
        # The whole training step compiled: the tape inside the function, as a
        # tf.function train step is written.
        @ag.function(jit_compile=jit)
        def step(x):
            with ag.GradientTape() as tape:
                hidden = ag.nn.relu(ag.matmul(x, variables[0]))
                value = ag.reduce_mean(ag.square(ag.matmul(hidden, variables[1])))
            return value, tape.gradient(value, variables)

        x = ag.constant(batch)
        return lambda: step(x)

    def jax_mlp_loss(params, x):
        hidden = jax.nn.relu(x @ params[0])
        return jnp.mean(jnp.square(hidden @ params[1]))

    jax_mlp = jax.jit(jax.value_and_grad(jax_mlp_loss))
    jax_params = [jnp.asarray(w1), jnp.asarray(w2)]
    jax_batch = jnp.asarray(batch)

    def hand():
        return jax.block_until_ready(jax_mlp(jax_params, jax_batch))

    size = f"MLP {batch_size}x{inputs}, {hidden} hidden, forward + backward"
    return [(f"{size} (tape around the call)", tape_around_the_call, hand),
            (f"{size} (tape inside the function)", tape_inside_the_function, hand)]


def _workloads():
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(STEPS, 1, HIDDEN)).astype(np.float32)
    w, u = (rng.normal(size=(HIDDEN, HIDDEN)).astype(np.float32) * 0.1 for _ in range(2))
    h0 = np.zeros((1, HIDDEN), np.float32)
    big = rng.normal(size=1_000_000).astype(np.float32)
    items = np.arange(10_000, dtype=np.int32)
    mlps = [row for size in MLP_SIZES for row in _mlp_workloads(rng, *size)]

    def ours(fn, args, jit):
        compiled = ag.function(fn, jit_compile=jit)
        tensors = [ag.constant(a) for a in args]
        return lambda: compiled(*tensors)

    def hand(fn, args, static=()):
        jitted = jax.jit(fn, static_argnums=static)
        arrays = [a if i in static else jnp.asarray(a) for i, a in enumerate(args)]
        return lambda: jax.block_until_ready(jitted(*arrays))

    rnn_args = (h0, xs, w, u, np.int32(STEPS))
    return [
        ("Collatz(27)", lambda j: ours(collatz_steps, (np.int32(27),), j),
         hand(_jax_collatz, (np.int32(27),))),
        ("sum_even over 10,000 elements", lambda j: ours(sum_even, (items,), j),
         hand(_jax_sum_even, (items,))),
        (f"RNN, {STEPS} steps as a staged loop", lambda j: ours(rnn, rnn_args, j),
         hand(_jax_rnn, rnn_args)),
        (f"{CHAIN_OPS}-op chain on 1e6 floats", lambda j: ours(chain, (big,), j),
         hand(_jax_chain, (big,))),
        *mlps,
        ("trivial call (cache hit)", lambda j: ours(trivial, (np.float32(1.0),), j),
         hand(trivial, (np.float32(1.0),))),
    ]


def measure(repeats=7):
    rows = []
    for workload, make_ours, hand_written in _workloads():
        runners = {"ag.function (numpy runtime)": make_ours(False),
                   "ag.function(jit_compile=True)": make_ours(True),
                   "jax.jit (hand-written)": hand_written}
        for runner in runners.values():  # trace, compile, and keep the inputs' JAX copies
            for _ in range(3):
                runner()
        number = max(1, min(number_for(r) for r in runners.values()))
        stats = interleaved_stats(runners, repeats=repeats, number=number)
        reference = stats["jax.jit (hand-written)"][0]
        for mode, (seconds, spread) in stats.items():
            rows.append(row(workload, mode, seconds, spread, "jax.jit (hand-written)",
                            reference))
    return rows


def main(argv=None):
    run_module(measure, __doc__, argv)


if __name__ == "__main__":
    main()
