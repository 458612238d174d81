"""What the runtime costs over plain numpy: eager ops, and Session.run of a built graph.

Cases: a scalar add (pure per-op overhead), a 1000x1000 float32 matmul (overhead
vanishes behind the kernel) and a 50-op elementwise chain on 1e6 float32 (per-op
overhead plus memory traffic; the graph's executor frees each intermediate after its
last use, so its peak memory should stay close to numpy's).

Graph mode feeds the inputs through placeholders on every run, as users do; the plan is
compiled by a first run (warm-up) and reused. Prints a markdown table;
`--json PATH` also writes the numbers. Usage: `python benchmarks/runtime_overhead.py`.
"""

import argparse
import platform

import numpy as np
from _harness import markdown_table, median_time, peak_memory, write_json

from runtime import dtypes
from runtime.graph import Graph
from runtime.ops import math_ops as m
from runtime.ops.core import constant, placeholder
from runtime.session import Session

CHAIN_LENGTH = 50
CHAIN_SIZE = 1_000_000
# The chain cycles through these so values stay bounded: (x + c) * c - c with c = 0.5.
CHAIN_OPS = ((m.add, np.add), (m.multiply, np.multiply), (m.subtract, np.subtract))


def chain(x, c, ops):
    for i in range(CHAIN_LENGTH):
        x = ops[i % len(ops)](x, c)
    return x


def case(name, arrays, staged, plain, number=1):
    """Time `staged` (built from tensors) eagerly and as a graph, and `plain` on arrays."""
    eager_args = [constant(a) for a in arrays]
    graph = Graph()
    with graph.as_default():
        holders = [placeholder(dtypes.as_dtype(a.dtype), a.shape, name=f"in{i}")
                   for i, a in enumerate(arrays)]
        out = staged(*holders)
    sess = Session(graph)
    feeds = dict(zip(holders, arrays))
    row = {"case": name,
           "numpy_s": median_time(lambda: plain(*arrays), number=number),
           "eager_s": median_time(lambda: staged(*eager_args), number=number),
           "graph_s": median_time(lambda: sess.run(out, feeds), number=number)}
    row["eager_ratio"] = row["eager_s"] / row["numpy_s"]
    row["graph_ratio"] = row["graph_s"] / row["numpy_s"]
    return row, (lambda: sess.run(out, feeds)), (lambda: plain(*arrays))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    scalar = [np.asarray(np.float32(1.5)), np.asarray(np.float32(2.5))]
    square = [rng.standard_normal((1000, 1000), dtype=np.float32) for _ in range(2)]
    big = [rng.standard_normal(CHAIN_SIZE, dtype=np.float32), np.asarray(np.float32(0.5))]
    staged_ops = [op for op, _ in CHAIN_OPS]
    numpy_ops = [op for _, op in CHAIN_OPS]

    rows = []
    row, _, _ = case("scalar add", scalar, m.add, np.add, number=2000)
    rows.append(row)
    row, _, _ = case("matmul 1000x1000 f32", square, m.matmul, np.matmul)
    rows.append(row)
    row, graph_chain, numpy_chain = case(
        f"{CHAIN_LENGTH}-op chain on 1e6 f32", big,
        lambda x, c: chain(x, c, staged_ops), lambda x, c: chain(x, c, numpy_ops))
    rows.append(row)
    memory = {"graph_peak_bytes": peak_memory(graph_chain),
              "numpy_peak_bytes": peak_memory(numpy_chain)}
    memory["ratio"] = memory["graph_peak_bytes"] / memory["numpy_peak_bytes"]

    print(f"runtime overhead (median of 7 runs; python {platform.python_version()}, "
          f"numpy {np.__version__})\n")
    print(markdown_table(rows, [
        ("case", "case", ""), ("numpy_s", "numpy (s)", ".3g"), ("eager_s", "eager (s)", ".3g"),
        ("graph_s", "graph (s)", ".3g"), ("eager_ratio", "eager / numpy", ".2f"),
        ("graph_ratio", "graph / numpy", ".2f")]))
    print()
    print(markdown_table([memory], [
        ("graph_peak_bytes", "chain peak, graph (bytes)", ",d"),
        ("numpy_peak_bytes", "chain peak, numpy (bytes)", ",d"),
        ("ratio", "graph / numpy", ".2f")]))
    if args.json:
        write_json(args.json, {"times": rows, "chain_memory": memory,
                               "python": platform.python_version(), "numpy": np.__version__})


if __name__ == "__main__":
    main()
