"""What `ag.function` costs per call, and what it saves (issue 4, SEED_EXAMPLES.md §6).

Cases:
- cache hit: a trivial function (two scalars added) through `ag.function`, against the
  same add as one eager op (`ag.add`) and as raw numpy (`np.add` on 0-d arrays). The
  difference function - eager is the price of a cache hit on top of the kernel.
- LSTM cell (batch 10, units 10, written with matmul / sigmoid / tanh): eager vs function.
- `ag.nn.conv2d` on a 1x200x200x100 float32 input, 3x3 filters to 100 channels: eager vs
  function (the kernel dominates; the function should cost the same).

Each time is the median of `--repeats` samples after warm-up (the first call traces),
the modes of a case sampled in turns; the spread is (max - min) / median. When
TensorFlow is importable the same cases run there (eager, `tf.function`). Prints a markdown table;
`--json PATH` also writes the numbers. Nothing is asserted (DESIGN.md §7).
Usage: `python benchmarks/function_overhead.py [--repeats N] [--json PATH]`.
"""

import argparse
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import interleaved_stats, results_table, row, tensorflow, write_json  # noqa: E402

import autograph_py as ag  # noqa: E402

BATCH, UNITS = 10, 10


def add(a, b):
    return a + b


def lstm_step(ops, x, h, c, w, u, b):
    """One LSTM step with the library `ops` (`ag`, or `tensorflow` for the comparison);
    the four gates come from one matmul each on input and state."""
    z = ops.matmul(x, w) + ops.matmul(h, u) + b
    i = ops.sigmoid(z[:, :UNITS])
    f = ops.sigmoid(z[:, UNITS:2 * UNITS])
    g = ops.tanh(z[:, 2 * UNITS:3 * UNITS])
    o = ops.sigmoid(z[:, 3 * UNITS:])
    c = f * c + i * g
    return o * ops.tanh(c), c


def conv_step(ops, x, filters):
    return ops.nn.conv2d(x, filters, strides=1, padding="SAME")


def _cases(rng):
    """(case, reference mode, {mode: (runner, TensorFlow mode, TensorFlow runner)}, number)."""
    tf = tensorflow()
    a, b = np.asarray(np.float32(1.5)), np.asarray(np.float32(2.5))
    ta, tb = ag.constant(a), ag.constant(b)
    traced_add = ag.function(add)
    tf_args = tf_add = None
    if tf is not None:
        tf_args = (tf.constant(a), tf.constant(b))
        tf_add = tf.function(add)
    yield "scalar add", "numpy np.add", {
        "numpy np.add": (lambda: np.add(a, b), None, None),
        "eager ag.add": (lambda: ag.add(ta, tb), "eager tf.add",
                         tf and (lambda: tf.add(*tf_args))),
        "ag.function (cache hit)": (lambda: traced_add(ta, tb), "tf.function (cache hit)",
                                    tf and (lambda: tf_add(*tf_args))),
    }, 5000

    def normal(*shape):
        return rng.standard_normal(shape, dtype=np.float32)

    for case, fn, arrays, number in (
            (f"LSTM cell {BATCH}x{UNITS}", lstm_step,
             [normal(BATCH, UNITS), normal(BATCH, UNITS), normal(BATCH, UNITS),
              normal(UNITS, 4 * UNITS), normal(UNITS, 4 * UNITS), normal(4 * UNITS)], 500),
            ("conv2d 1x200x200x100, 3x3x100", conv_step,
             [normal(1, 200, 200, 100), normal(3, 3, 100, 100)], 1)):
        yield case, "eager", _modes(fn, arrays, tf), number


def _modes(step, arrays, tf):
    args = [ag.constant(x) for x in arrays]

    def fn(*xs):
        return step(ag, *xs)

    traced = ag.function(fn)
    modes = {"eager": [lambda: fn(*args), "eager", None],
             "ag.function": [lambda: traced(*args), "tf.function", None]}
    if tf is not None:
        tf_args = [tf.constant(x) for x in arrays]
        tf_traced = tf.function(lambda *xs: step(tf, *xs))
        modes["eager"][2] = lambda: step(tf, *tf_args)
        modes["ag.function"][2] = lambda: tf_traced(*tf_args)
    return {mode: tuple(entry) for mode, entry in modes.items()}


def measure(repeats=15):
    """Rows (see _harness.row) of every case, each mode against the case's reference."""
    rows = []
    for case, reference, modes, number in _cases(np.random.default_rng(0)):
        if number == 1:
            repeats = max(3, repeats // 3)
        runners = {mode: run for mode, (run, _, _) in modes.items()}
        runners.update({("tf", mode): tf_run for mode, (_, _, tf_run) in modes.items()
                        if tf_run is not None})
        stats = interleaved_stats(runners, repeats, warmup=1, number=number)
        for mode, (_, tf_mode, tf_run) in modes.items():
            rows.append(row(case, mode, *stats[mode], reference, stats[reference][0],
                            tf_mode=tf_mode,
                            tf_seconds=stats[("tf", mode)][0] if tf_run is not None else None))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    rows = measure(args.repeats)
    by_mode = {r["mode"]: r["seconds"] for r in rows if r["workload"] == "scalar add"}
    hit_overhead_us = (by_mode["ag.function (cache hit)"] - by_mode["eager ag.add"]) * 1e6
    print(f"ag.function overhead (median of {args.repeats} samples after warm-up; python "
          f"{platform.python_version()}, numpy {np.__version__})\n")
    print(results_table(rows))
    print(f"\ncache hit on top of the eager op: {hit_overhead_us:.2f} µs per call")
    if args.json:
        write_json(args.json, {"rows": rows, "cache_hit_overhead_us": hit_overhead_us,
                               "python": platform.python_version(),
                               "numpy": np.__version__})


if __name__ == "__main__":
    main()
