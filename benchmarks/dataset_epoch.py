"""A dataset-driven training epoch through `ag.function` (issue 12): time per batch.

Workload: linear regression on 32,000 rows of 16 features, `from_tensor_slices` ->
`shuffle(seed)` -> `batch(32)`, so one epoch is 1,000 batches; the epoch is one call of
an `ag.function` whose staged `for x, y in dataset:` takes a GradientTape step per batch
and writes the loss into a TensorArray. Modes: that function (one graph for the whole
epoch), and the same step as an `ag.function` called from a Python loop over the
dataset eagerly (a graph per batch, the pipeline in Python). When TensorFlow is
importable the same epoch runs as a `tf.function` over a `tf.data` pipeline; otherwise the
table says it is not installed. The time is per batch: epoch median / 1,000.
Nothing is asserted (DESIGN.md §7).
Usage: `python benchmarks/dataset_epoch.py [--repeats N] [--json PATH]`.
"""

import argparse
import os
import platform
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import interleaved_stats, results_table, row, tensorflow, write_json  # noqa: E402

import autograph_py as ag  # noqa: E402

ROWS, FEATURES, BATCH = 32_000, 16, 32
BATCHES = ROWS // BATCH
WORKLOAD = f"epoch of {BATCHES} batches of {BATCH}, per batch"


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(ROWS, FEATURES)).astype(np.float32)
    y = (x @ rng.normal(size=FEATURES).astype(np.float32) + 0.5).astype(np.float32)
    return x, y


def _training(ops, x, y):
    """The pipeline, the step and the epoch in the library `ops` (`ag`, or `tensorflow`
    for the comparison: `ops.data`, `ops.function`, ... are spelled alike)."""
    dataset = ops.data.Dataset.from_tensor_slices((x, y)).shuffle(1024, seed=0).batch(BATCH)
    w, b = ops.Variable(ops.zeros([FEATURES])), ops.Variable(0.0)

    def step(xb, yb):
        with ops.GradientTape() as tape:
            error = ops.reduce_sum(xb * w, axis=1) + b - yb
            loss = ops.reduce_mean(error * error)
        dw, db = tape.gradient(loss, [w, b])
        w.assign_sub(0.01 * dw)
        b.assign_sub(0.01 * db)
        return loss

    @ops.function
    def epoch(dataset):
        losses = ops.TensorArray(ops.float32, size=0, dynamic_size=True)
        i = 0
        for xb, yb in dataset:
            losses = losses.write(i, step(xb, yb))
            i += 1
        return losses.stack()

    return dataset, step, epoch


def _ours(x, y):
    dataset, step, epoch = _training(ag, x, y)
    step_function = ag.function(step)

    def python_loop():
        for xb, yb in dataset:
            step_function(xb, yb)

    return {"ag.function over the epoch (staged loop)": lambda: epoch(dataset),
            "Python loop, ag.function per batch": python_loop}


def _tensorflow_epoch(tf, x, y):
    dataset, _, epoch = _training(tf, x, y)
    return lambda: epoch(dataset)


def measure(repeats=5):
    x, y = _data()
    runners = _ours(x, y)
    tf = tensorflow()
    if tf is not None:
        runners["tf"] = _tensorflow_epoch(tf, x, y)
    stats = interleaved_stats(runners, repeats, warmup=1)
    reference = "ag.function over the epoch (staged loop)"
    tf_seconds = stats["tf"][0] / BATCHES if tf is not None else None
    return [row(WORKLOAD, mode, stats[mode][0] / BATCHES, stats[mode][1], reference,
                stats[reference][0] / BATCHES,
                tf_mode="tf.function over tf.data" if mode == reference else None,
                tf_seconds=tf_seconds if mode == reference else None)
            for mode in runners if mode != "tf"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    rows = measure(args.repeats)
    print(f"dataset epoch (median of {args.repeats} epochs after warm-up; python "
          f"{platform.python_version()}, numpy {np.__version__})\n")
    print(results_table(rows))
    if tensorflow() is None:
        print("\nTensorFlow is not installed here, so there is no TensorFlow time to "
              "compare with.")
    if args.json:
        write_json(args.json, {"rows": rows, "python": platform.python_version(),
                               "numpy": np.__version__})


if __name__ == "__main__":
    main()
