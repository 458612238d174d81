"""The seed article's comparison: the same Python code run eagerly, converted and run
eagerly, converted and run as a graph in a Session, and through `ag.function`.

Run: `python benchmarks/seed_comparison.py [--json PATH]`. Workloads: the seed's
`sum_even` on [10, 12, 15, 20], `square_if_positive`, and scalar loops (`while i < n`
with n = 10,000, a Collatz step count, a Fibonacci number). Each row is a median over
repeats after warm-up; ratios are taken against the original code run eagerly on our
tensors, in the same run. When TensorFlow is importable, the same workloads run there
too (tf.function and a TF1-style graph); otherwise its columns say "not installed".
Nothing here is asserted: see docs/performance.md for the targets.
"""

import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import markdown_table, median_time, write_json  # noqa: E402

import autograph_py as ag  # noqa: E402


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def square_if_positive(x):
    if x > 0:
        x = x * x
    else:
        x = 0.0
    return x


def count_to(n):
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    return total


def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def fibonacci(n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


WORKLOADS = [
    ("sum_even([10, 12, 15, 20])", sum_even, lambda: [ag.constant([10, 12, 15, 20])], 200),
    ("square_if_positive(9.0)", square_if_positive, lambda: [ag.constant(9.0)], 500),
    ("while i < n (n=10,000)", count_to, lambda: [ag.constant(10_000)], 1),
    ("collatz_steps(27)", collatz_steps, lambda: [ag.constant(27)], 20),
    ("fibonacci(40)", fibonacci, lambda: [ag.constant(40)], 20),
]


def _graph_runner(fn, args):
    graph = ag.Graph()
    with graph.as_default():
        placeholders = [ag.placeholder(a.dtype, shape=a.shape) for a in args]
        output = ag.to_graph(fn)(*placeholders)
    sess = ag.Session(graph)
    feeds = {p: a.numpy() for p, a in zip(placeholders, args)}
    return lambda: sess.run(output, feeds)


def _runners(fn, args):
    converted = ag.to_graph(fn)
    function = ag.function(fn)
    return {
        "original code, eager": lambda: fn(*args),
        "converted code, eager": lambda: converted(*args),
        "converted code, graph (Session.run)": _graph_runner(fn, args),
        "ag.function (cache hit)": lambda: function(*args),
    }


def _tensorflow_runners(fn, args):
    if importlib.util.find_spec("tensorflow") is None:
        return None
    import tensorflow as tf  # noqa: F401  (optional comparison, never a dependency)

    tf_args = [tf.constant(a.numpy()) for a in args]
    traced = tf.function(fn)
    return {"tf.function": lambda: traced(*tf_args)}


def measure():
    rows = []
    for name, fn, make_args, number in WORKLOADS:
        args = make_args()
        modes = {mode: median_time(run, number=number)
                 for mode, run in _runners(fn, args).items()}
        eager = modes["original code, eager"]
        tf_runners = _tensorflow_runners(fn, args)
        for mode, seconds in modes.items():
            rows.append({"workload": name, "mode": mode, "time_us": seconds * 1e6,
                         "speedup": eager / seconds, "tensorflow": "not installed"
                         if tf_runners is None else ""})
        for mode, runner in (tf_runners or {}).items():
            seconds = median_time(runner, number=number)
            rows.append({"workload": name, "mode": mode, "time_us": seconds * 1e6,
                         "speedup": eager / seconds, "tensorflow": "installed"})
    return rows


COLUMNS = [("workload", "workload", ""), ("mode", "mode", ""),
           ("time_us", "median µs", ".1f"), ("speedup", "speed-up vs eager original", ".2f"),
           ("tensorflow", "TensorFlow", "")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows to this JSON file")
    options = parser.parse_args(argv)
    rows = measure()
    print(markdown_table(rows, COLUMNS))
    if options.json:
        write_json(options.json, rows)
    return rows


if __name__ == "__main__":
    main()
