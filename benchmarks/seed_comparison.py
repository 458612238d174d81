"""The seed article's comparison: the same Python code run eagerly, converted and run
eagerly, converted and run as a graph in a Session, and through `ag.function`.

Run: `python benchmarks/seed_comparison.py [--json PATH]`. Workloads: the seed's
`sum_even` on [10, 12, 15, 20], `square_if_positive`, and scalar loops (`while i < n`
with n = 10,000, a Collatz step count, a Fibonacci number). Each row is a median over
repeats after warm-up; ratios are taken against the original code run eagerly on our
tensors, in the same run. When TensorFlow is importable, the same workloads run there
too, each of our modes against TensorFlow's equivalent (eager, `tf.autograph.to_graph`
eagerly, a TF1-style graph through `tf.compat.v1.Session`, `tf.function`); otherwise its
columns say "not installed".
Nothing here is asserted: see docs/performance.md for the targets.
"""

import argparse
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "examples"))

from _harness import interleaved_stats, results_table, row, tensorflow, write_json  # noqa: E402
from seed import square_if_positive, sum_even  # noqa: E402  (the article's functions)

import autograph_py as ag  # noqa: E402


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


REFERENCE = "original code, eager"
# Our mode -> TensorFlow's equivalent.
TF_MODES = {
    "original code, eager": "eager",
    "converted code, eager": "tf.autograph.to_graph, eager",
    "converted code, graph (Session.run)": "tf.compat.v1 graph (Session.run)",
    "ag.function (cache hit)": "tf.function (cache hit)",
}


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
    """The same four modes in TensorFlow (keys: our mode names), or None."""
    tf = tensorflow()
    if tf is None:
        return None
    values = [a.numpy() for a in args]
    tf_args = [tf.constant(v) for v in values]
    converted = tf.autograph.to_graph(fn)
    traced = tf.function(fn)
    graph = tf.Graph()
    with graph.as_default():
        placeholders = [tf.compat.v1.placeholder(tf.as_dtype(v.dtype), shape=v.shape)
                        for v in values]
        output = tf.autograph.to_graph(fn)(*placeholders)
    sess = tf.compat.v1.Session(graph=graph)
    feeds = dict(zip(placeholders, values))
    return {
        "original code, eager": lambda: fn(*tf_args),
        "converted code, eager": lambda: converted(*tf_args),
        "converted code, graph (Session.run)": lambda: sess.run(output, feeds),
        "ag.function (cache hit)": lambda: traced(*tf_args),
    }


def measure(repeats=7):
    """Rows (see _harness.row): each workload in our four modes, with TensorFlow's."""
    rows = []
    for name, fn, make_args, number in WORKLOADS:
        args = make_args()
        runners = _runners(fn, args)
        tf_runners = _tensorflow_runners(fn, args) or {}
        runners.update({("tf", mode): run for mode, run in tf_runners.items()})
        stats = interleaved_stats(runners, repeats, number=number)
        for mode in TF_MODES:
            tf_seconds = stats[("tf", mode)][0] if mode in tf_runners else None
            rows.append(row(name, mode, *stats[mode], REFERENCE, stats[REFERENCE][0],
                            tf_mode=TF_MODES[mode], tf_seconds=tf_seconds))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--repeats", type=int, default=7)
    options = parser.parse_args(argv)
    rows = measure(options.repeats)
    print(results_table(rows))
    if options.json:
        write_json(options.json, rows)
    return rows


if __name__ == "__main__":
    main()
