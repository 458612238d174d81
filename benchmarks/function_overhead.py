"""What `ag.function` costs per call, and what it saves (issue 4, SEED_EXAMPLES.md §6).

Cases:
- cache hit: a trivial function (two scalars added) through `ag.function`, against the
  same add as one eager op (`ag.add`) and as raw numpy (`np.add` on 0-d arrays). The
  difference function - eager is the price of a cache hit on top of the kernel.
- LSTM cell (batch 10, units 10, written with matmul / sigmoid / tanh): eager vs function.
- `ag.nn.conv2d` on a 1x200x200x100 float32 input, 3x3 filters to 100 channels: eager vs
  function (the kernel dominates; the function should cost the same).

Each time is the median of `--repeats` samples after warm-up (the first call traces);
the spread is (max - min) / median over those samples. Prints a markdown table;
`--json PATH` also writes the numbers. Nothing is asserted (DESIGN.md §7).
Usage: `python benchmarks/function_overhead.py [--repeats N] [--json PATH]`.
"""

import argparse
import os
import platform
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import markdown_table, median_time, write_json  # noqa: E402

import autograph_py as ag  # noqa: E402

BATCH, UNITS = 10, 10


def add(a, b):
    return a + b


def lstm_cell(x, h, c, w, u, b):
    """One LSTM step; the four gates come from one matmul each on input and state."""
    z = ag.matmul(x, w) + ag.matmul(h, u) + b
    i = ag.sigmoid(z[:, :UNITS])
    f = ag.sigmoid(z[:, UNITS:2 * UNITS])
    g = ag.tanh(z[:, 2 * UNITS:3 * UNITS])
    o = ag.sigmoid(z[:, 3 * UNITS:])
    c = f * c + i * g
    return o * ag.tanh(c), c


def conv(x, filters):
    return ag.nn.conv2d(x, filters, strides=1, padding="SAME")


def measure(fn, repeats, number):
    """(median, spread) of seconds per call; each sample times `number` calls."""
    fn()  # warm-up: traces a function, fills numpy's and the allocator's caches
    samples = [median_time(fn, repeats=1, warmup=0, number=number) for _ in range(repeats)]
    median = statistics.median(samples)
    return median, (max(samples) - min(samples)) / median


def row(name, variant, fn, repeats, number, baseline=None):
    median, spread = measure(fn, repeats, number)
    return {"case": name, "variant": variant, "seconds": median, "spread": spread,
            "ratio": median / baseline["seconds"] if baseline else 1.0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []

    a, b = np.asarray(np.float32(1.5)), np.asarray(np.float32(2.5))
    ta, tb = ag.constant(a), ag.constant(b)
    traced_add = ag.function(add)
    numpy_row = row("scalar add", "numpy np.add", lambda: np.add(a, b), args.repeats, 5000)
    eager_row = row("scalar add", "eager ag.add", lambda: ag.add(ta, tb), args.repeats, 5000,
                    numpy_row)
    function_row = row("scalar add", "ag.function (cache hit)", lambda: traced_add(ta, tb),
                       args.repeats, 5000, numpy_row)
    rows += [numpy_row, eager_row, function_row]
    hit_overhead_us = (function_row["seconds"] - eager_row["seconds"]) * 1e6

    def normal(*shape):
        return ag.constant(rng.standard_normal(shape, dtype=np.float32))

    lstm_args = (normal(BATCH, UNITS), normal(BATCH, UNITS), normal(BATCH, UNITS),
                 normal(UNITS, 4 * UNITS), normal(UNITS, 4 * UNITS), normal(4 * UNITS))
    traced_lstm = ag.function(lstm_cell)
    eager = row("LSTM cell 10x10", "eager", lambda: lstm_cell(*lstm_args), args.repeats, 500)
    rows += [eager, row("LSTM cell 10x10", "ag.function", lambda: traced_lstm(*lstm_args),
                        args.repeats, 500, eager)]

    conv_args = (normal(1, 200, 200, 100), normal(3, 3, 100, 100))
    traced_conv = ag.function(conv)
    conv_repeats = max(3, args.repeats // 3)
    eager = row("conv2d 1x200x200x100, 3x3x100", "eager", lambda: conv(*conv_args),
                conv_repeats, 1)
    rows += [eager, row("conv2d 1x200x200x100, 3x3x100", "ag.function",
                        lambda: traced_conv(*conv_args), conv_repeats, 1, eager)]

    print(f"ag.function overhead (median of {args.repeats} samples after warm-up; python "
          f"{platform.python_version()}, numpy {np.__version__})\n")
    print(markdown_table(rows, [
        ("case", "case", ""), ("variant", "variant", ""), ("seconds", "time per call (s)", ".3g"),
        ("spread", "spread", ".0%"), ("ratio", "vs first row of case", ".2f")]))
    print(f"\ncache hit on top of the eager op: {hit_overhead_us:.2f} µs per call")
    if args.json:
        write_json(args.json, {"rows": rows, "cache_hit_overhead_us": hit_overhead_us,
                               "python": platform.python_version(),
                               "numpy": np.__version__})


if __name__ == "__main__":
    main()
