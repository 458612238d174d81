"""The default (numpy) runtime against the plain Python and numpy it replaces (issue 17).

Run: `python benchmarks/default_runtime.py [--json PATH]` (or through `benchmarks/run.py`).
Every sample runs with numpy's BLAS on one thread (threadpoolctl, when installed), so the
ratios compare the runtimes, not the machine's load. Workloads and their references:

- Collatz(27) steps and the seed's `sum_even` over 10,000 ints through `ag.function`,
  against the same functions as plain Python (on an int, on a list of ints);
- a count loop and a branch loop of 10,000 staged iterations through `ag.function`: the
  rows give the time per iteration (the issue's target is 0.2 µs);
- the 50-op element-wise chain on 1e6 float32 through `Session.run`, against numpy's own
  best (in-place ufuncs), and the peak memory of both above the inputs;
- a 256-wide MLP forward + backward (GradientTape around an `ag.function`) and a 20-step
  RNN as a staged loop, against TensorFlow's `tf.function` when it is importable;
- a cache-hit call of a trivial `ag.function`.

Rows give medians of interleaved samples (see _harness); the loops' rows (60 short
samples a mode) and the trivial call also give their best sample, the one the machine's
other load hit least, and the loops the ratio of the best samples. Nothing is asserted:
the targets and a reference machine's numbers are in docs/performance.md.
"""

import argparse
import contextlib
import os
import statistics
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

import numpy as np  # noqa: E402
from _harness import (  # noqa: E402
    interleaved_samples,
    interleaved_stats,
    number_for,
    peak_memory,
    results_table,
    row,
    tensorflow,
    write_json,
)
from runtime_overhead import CHAIN_OPS, chain  # noqa: E402
from seed import sum_even  # noqa: E402  (the article's function)
from seed_comparison import collatz_steps  # noqa: E402

import autograph_py as ag  # noqa: E402

LOOP_ITERATIONS = 10_000
HIDDEN, STEPS, WIDTH, BATCH = 64, 20, 256, 128


def count_loop(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def branch_loop(n):
    i = 0
    s = 0
    while i < n:
        if i % 3 == 0:
            s += i
        else:
            s -= 1
        i += 1
    return s


def make_rnn(ns):
    """The RNN written against `ns`: our `ag` or TensorFlow's `tf` module."""

    def rnn(h, xs, w, u, n):
        i = 0
        while i < n:
            h = ns.tanh(ns.matmul(h, w) + ns.matmul(xs[i], u))
            i += 1
        return h

    return rnn


def one_blas_thread():
    """Every BLAS library numpy loaded on one thread, while the context lasts."""
    try:
        import threadpoolctl
    except ImportError:
        return contextlib.nullcontext()
    return threadpoolctl.threadpool_limits(1, user_api="blas")


def _staged(fn, *args):
    compiled = ag.function(fn)
    tensors = [ag.constant(a) for a in args]
    return lambda: compiled(*tensors)


def _python_rows(repeats):
    items = np.arange(LOOP_ITERATIONS, dtype=np.int32)
    as_list = items.tolist()
    n = np.int32(LOOP_ITERATIONS)
    cases = [
        ("Collatz(27)", _staged(collatz_steps, np.int32(27)), lambda: collatz_steps(27), None),
        (f"sum_even over {LOOP_ITERATIONS:,} ints", _staged(sum_even, items),
         lambda: sum_even(as_list), None),
        (f"count loop, {LOOP_ITERATIONS:,} iterations", _staged(count_loop, n),
         lambda: count_loop(LOOP_ITERATIONS), LOOP_ITERATIONS),
        (f"branch loop, {LOOP_ITERATIONS:,} iterations", _staged(branch_loop, n),
         lambda: branch_loop(LOOP_ITERATIONS), LOOP_ITERATIONS),
    ]
    rows = []
    for workload, staged, plain, iterations in cases:
        runners = {"ag.function (cache hit)": staged, "plain Python": plain}
        # Short samples, many rounds: more pairs for the paired ratio.
        samples = interleaved_samples(runners, 4 * repeats,
                                      number=number_for(staged, target_seconds=0.005))
        reference = statistics.median(samples["plain Python"])
        best = min(samples["plain Python"])
        for mode, values in samples.items():
            seconds = statistics.median(values)
            # The fastest sample of each mode is the one the machine's other load hit
            # least: their ratio estimates the ratio on a quiet machine.
            note = f"best {_time(min(values))}, {min(values) / best:.2f}x"
            numbers = {"best_seconds": min(values), "best_ratio": min(values) / best}
            if iterations:
                note += f"; {seconds / iterations * 1e6:.3f} µs per iteration"
                numbers.update(iteration_seconds=seconds / iterations,
                               best_iteration_seconds=min(values) / iterations)
            rows.append(row(workload, mode, seconds, (max(values) - min(values)) / seconds,
                            "plain Python", reference, note=note, **numbers))
    return rows


def _chain_rows(repeats):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1_000_000, dtype=np.float32)
    c = np.asarray(np.float32(0.5))
    graph = ag.Graph()
    with graph.as_default():
        px, pc = ag.placeholder(ag.float32, x.shape), ag.placeholder(ag.float32, ())
        out = chain(px, pc, [getattr(ag, op) for op in CHAIN_OPS])
    sess = ag.Session(graph)
    feeds = {px: x, pc: c}
    ufuncs = [getattr(np, op) for op in CHAIN_OPS]

    def numpy_in_place():
        y = ufuncs[0](x, c)
        for i in range(1, 50):
            ufuncs[i % len(ufuncs)](y, c, out=y)
        return y

    def graph_run():
        return sess.run(out, feeds)

    workload = f"50-op chain on 1e6 f32 ({', '.join(CHAIN_OPS)})"
    reference = "numpy, in-place ufuncs"
    stats = interleaved_stats({reference: numpy_in_place, "graph (Session.run)": graph_run},
                              repeats)
    rows = [row(workload, mode, seconds, spread, reference, stats[reference][0])
            for mode, (seconds, spread) in stats.items()]
    for mode, run in ((reference, numpy_in_place), ("graph (Session.run)", graph_run)):
        rows.append(row(workload, f"{mode}, peak memory above the inputs",
                        reference="one input array (4 MB)", reference_value=x.nbytes,
                        peak_bytes=peak_memory(run)))
    return rows


def _model_cases():
    """(workload, our runner, TensorFlow's runner or None)."""
    rng = np.random.default_rng(0)
    batch = rng.normal(size=(BATCH, WIDTH)).astype(np.float32)
    w1 = (rng.normal(size=(WIDTH, WIDTH)) / np.sqrt(WIDTH)).astype(np.float32)
    w2 = (rng.normal(size=(WIDTH, 1)) / np.sqrt(WIDTH)).astype(np.float32)
    xs = rng.normal(size=(STEPS, 1, HIDDEN)).astype(np.float32)
    w, u = (rng.normal(size=(HIDDEN, HIDDEN)).astype(np.float32) * 0.1 for _ in range(2))
    h0 = np.zeros((1, HIDDEN), np.float32)

    variables = [ag.Variable(w1), ag.Variable(w2)]

    @ag.function
    def loss(x):
        hidden = ag.nn.relu(ag.matmul(x, variables[0]))
        return ag.reduce_mean(ag.square(ag.matmul(hidden, variables[1])))

    x = ag.constant(batch)

    def mlp_step():
        with ag.GradientTape() as tape:
            value = loss(x)
        return value, tape.gradient(value, variables)

    tf_mlp = tf_rnn = None
    tf = tensorflow()
    if tf is not None:
        tf_vars = [tf.Variable(w1), tf.Variable(w2)]
        tf_x = tf.constant(batch)

        @tf.function
        def tf_loss(x):
            hidden = tf.nn.relu(tf.matmul(x, tf_vars[0]))
            return tf.reduce_mean(tf.square(tf.matmul(hidden, tf_vars[1])))

        def tf_mlp():
            with tf.GradientTape() as tape:
                value = tf_loss(tf_x)
            return value, tape.gradient(value, tf_vars)

        tf_rnn_fn = tf.function(make_rnn(tf))
        tf_args = [tf.constant(a) for a in (h0, xs, w, u, np.int32(STEPS))]

        def tf_rnn():
            return tf_rnn_fn(*tf_args)

    return [(f"MLP {BATCH}x{WIDTH}, {WIDTH} hidden, forward + backward", mlp_step, tf_mlp),
            (f"RNN, {STEPS} steps as a staged loop (hidden {HIDDEN})",
             _staged(make_rnn(ag), h0, xs, w, u, np.int32(STEPS)), tf_rnn)]


def _model_rows(repeats):
    rows = []
    for workload, ours, theirs in _model_cases():
        runners = {"ag.function": ours}
        if theirs is not None:
            runners["tf.function"] = theirs
        stats = interleaved_stats(runners, repeats, number=number_for(ours))
        seconds, spread = stats["ag.function"]
        rows.append(row(workload, "ag.function", seconds, spread, tf_mode="tf.function",
                        tf_seconds=stats["tf.function"][0] if theirs is not None else None))
    return rows


def _trivial_rows(repeats):
    trivial = _staged(lambda x: x + 1.0, np.float32(1.0))
    values = interleaved_samples({"hit": trivial}, repeats, number=number_for(trivial))["hit"]
    seconds = statistics.median(values)
    # The fastest sample is the one the machine's other load hit least.
    return [row("trivial ag.function (x + 1.0)", "cache hit", seconds,
                (max(values) - min(values)) / seconds,
                note=f"best {_time(min(values))}", best_seconds=min(values))]


def _time(seconds):
    return f"{seconds * 1e6:.3g} µs" if seconds < 1e-3 else f"{seconds * 1e3:.3g} ms"


def measure(repeats=15):
    with one_blas_thread():
        return (_python_rows(repeats) + _chain_rows(repeats) + _model_rows(repeats) +
                _trivial_rows(repeats))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    rows = measure(args.repeats)
    print(results_table(rows))
    if args.json:
        write_json(args.json, rows)


if __name__ == "__main__":
    main()
