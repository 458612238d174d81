"""What the runtime costs over plain numpy: eager ops, and Session.run of a built graph.

Cases: a scalar add (pure per-op overhead), a 1000x1000 float32 matmul chain (three
products: overhead vanishes behind the kernel) and a 50-op elementwise chain on 1e6
float32 (per-op overhead plus memory traffic; the graph's executor frees each
intermediate after its last use, so its peak memory stays a few arrays above the inputs).

Graph mode feeds the inputs through placeholders on every run, as users do; the plan is
compiled by a first run (warm-up) and reused. When TensorFlow is importable, the same
cases run there eagerly and as a TF1-style graph (`tf.compat.v1.Session`). Prints a
markdown table; `--json PATH` also writes the rows. Usage:
`python benchmarks/runtime_overhead.py [--repeats N] [--json PATH]`.
"""

import argparse
import os
import platform
import sys
import types

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import (  # noqa: E402
    interleaved_stats,
    number_for,
    peak_memory,
    results_table,
    row,
    tensorflow,
    write_json,
)
from autograph_py.runtime import dtypes  # noqa: E402
from autograph_py.runtime.graph import Graph  # noqa: E402
from autograph_py.runtime.ops import math_ops as m  # noqa: E402
from autograph_py.runtime.ops.core import constant, placeholder  # noqa: E402
from autograph_py.runtime.session import Session  # noqa: E402

CHAIN_LENGTH = 50
CHAIN_SIZE = 1_000_000
MATMULS = 3
# The chain cycles through these so values stay bounded: (x + c) * c - c with c = 0.5.
CHAIN_OPS = ("add", "multiply", "subtract")


def chain(x, c, ops):
    """`ops` names the functions of a module (numpy, math_ops, tensorflow)."""
    for i in range(CHAIN_LENGTH):
        x = ops[i % len(ops)](x, c)
    return x


def matmul_chain(a, b, matmul):
    """a @ b @ b @ b (the product stays bounded: b is scaled to unit spectral size)."""
    for _ in range(MATMULS):
        a = matmul(a, b)
    return a


def cases(rng):
    """(name, input arrays, fn(namespace) -> staged function) for every case."""
    square = [rng.standard_normal((1000, 1000), dtype=np.float32),
              rng.standard_normal((1000, 1000), dtype=np.float32) / np.float32(63)]
    big = [rng.standard_normal(CHAIN_SIZE, dtype=np.float32), np.asarray(np.float32(0.5))]
    return [
        ("scalar add", [np.asarray(np.float32(1.5)), np.asarray(np.float32(2.5))],
         lambda ns: ns.add),
        (f"matmul chain ({MATMULS} products) 1000x1000 f32", square,
         lambda ns: lambda a, b: matmul_chain(a, b, ns.matmul)),
        (f"{CHAIN_LENGTH}-op chain on 1e6 f32", big,
         lambda ns: lambda x, c: chain(x, c, [getattr(ns, op) for op in CHAIN_OPS])),
    ]


def _ours(arrays, staged):
    """(eager runner, graph runner) of our runtime."""
    eager_args = [constant(a) for a in arrays]
    graph = Graph()
    with graph.as_default():
        holders = [placeholder(dtypes.as_dtype(a.dtype), a.shape, name=f"in{i}")
                   for i, a in enumerate(arrays)]
        out = staged(*holders)
    sess = Session(graph)
    feeds = dict(zip(holders, arrays))
    return (lambda: staged(*eager_args)), (lambda: sess.run(out, feeds))


def _tensorflow(arrays, make):
    """(eager runner, TF1 graph runner) in TensorFlow, or (None, None)."""
    tf = tensorflow()
    if tf is None:
        return None, None
    staged = make(types.SimpleNamespace(**{op: getattr(tf, op)
                                           for op in (*CHAIN_OPS, "matmul")}))
    tf_args = [tf.constant(a) for a in arrays]
    graph = tf.Graph()
    with graph.as_default():
        holders = [tf.compat.v1.placeholder(tf.as_dtype(a.dtype), a.shape) for a in arrays]
        out = staged(*holders)
    sess = tf.compat.v1.Session(graph=graph)
    feeds = dict(zip(holders, arrays))
    return (lambda: staged(*tf_args).numpy()), (lambda: sess.run(out, feeds))


def measure(repeats=7):
    """Rows (see _harness.row): each case as numpy, eager and graph; the chain's memory."""
    rows = []
    for name, arrays, make in cases(np.random.default_rng(0)):
        rows += _case_rows(name, arrays, make, repeats)
    return rows


def _case_rows(name, arrays, make, repeats):
    plain = make(np)

    def numpy_run():
        return plain(*arrays)

    eager, graph = _ours(arrays, make(m))
    tf_eager, tf_graph = _tensorflow(arrays, make)
    runners = {"numpy": numpy_run, "eager": eager, "graph (Session.run)": graph}
    tf_modes = {"eager": ("eager", tf_eager),
                "graph (Session.run)": ("tf.compat.v1 graph (Session.run)", tf_graph)}
    for mode, (_, tf_run) in tf_modes.items():
        if tf_run is not None:
            runners["tf " + mode] = tf_run
    stats = interleaved_stats(runners, repeats, number=number_for(numpy_run))
    numpy_time = stats["numpy"][0]
    rows = [row(name, "numpy", *stats["numpy"], "numpy", numpy_time)]
    for mode, (tf_mode, tf_run) in tf_modes.items():
        tf_seconds = stats["tf " + mode][0] if tf_run is not None else None
        rows.append(row(name, mode, *stats[mode], "numpy", numpy_time,
                        tf_mode=tf_mode, tf_seconds=tf_seconds))
    if name.startswith(f"{CHAIN_LENGTH}-op"):
        for mode, run in (("numpy", numpy_run), ("graph (Session.run)", graph)):
            rows.append(row(name, f"{mode}, peak memory above the inputs",
                            reference="one input array (4 MB)",
                            reference_value=arrays[0].nbytes, peak_bytes=peak_memory(run)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args()
    rows = measure(args.repeats)
    print(f"runtime overhead (median of {args.repeats} samples; python "
          f"{platform.python_version()}, numpy {np.__version__})\n")
    print(results_table(rows))
    if args.json:
        write_json(args.json, rows)


if __name__ == "__main__":
    main()
