"""What the compiled plan's building blocks cost: the small measurements its design
rests on (docs/performance.md, "How the executor is built").

Run: `python benchmarks/building_blocks.py [--repeats N]` (or through `benchmarks/run.py`).
Each row times one statement with `timeit` (its loop adds almost nothing: a Python call
per sample would cost more than the operators measured), the modes of one workload
sampled in turns; the time is per statement, the ratio to the workload's reference:

- a rank-0 int32 add: Python ints (what a plan holds rank-0 integers as), numpy int32
  scalars, and `np.add` on 0-d arrays (a kernel call);
- a rank-0 float32 add: the numpy scalars' operator against `np.add` on 0-d arrays;
- an element of a rank-1 int32 array read by a Python int: through a memoryview (the
  plan's `scalar_view`), `x.item(i)`, and `x[i]`;
- the wraparound test the plan adds after an integer `+` that can overflow: `i + 1`
  with the test, against without it;
- ignoring numpy's float warnings around a kernel: `np.errstate(all="ignore")` entered
  and left, against `runtime/errstate.py`'s context-variable switch;
- one BLAS thread (threadpoolctl, the `[perf]` extra): a 128x256 @ 256x256 float32
  product on numpy's default threads and on one, and what `runtime/blas_threads.py`'s
  switch to one thread and back costs a plan run.
Nothing is asserted (DESIGN.md §7).
"""

import argparse
import importlib.util
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _harness import interleaved_samples, results_table, row  # noqa: E402
from autograph_py.runtime import blas_threads  # noqa: E402
from autograph_py.runtime.errstate import IGNORE_ALL, reset_errstate, set_errstate  # noqa: E402

ONE_THREAD = "one BLAS thread"
STATEMENTS = 20_000  # per sample (fewer for the matrix product, see _blas_case)


def _namespace():
    ints = np.arange(10_000, dtype=np.int32)
    f32 = np.float32(1.5)
    return {
        "np": np, "a": 12345, "b": 678, "sa": np.int32(12345), "sb": np.int32(678),
        "za": np.asarray(np.int32(12345)), "zb": np.asarray(np.int32(678)),
        "fa": f32, "fb": np.float32(2.5), "zfa": np.asarray(f32),
        "zfb": np.asarray(np.float32(2.5)), "ints": ints, "view": memoryview(ints),
        "i": 4321, "set_errstate": set_errstate, "reset_errstate": reset_errstate,
        "IGNORE_ALL": IGNORE_ALL,
    }


# (workload, reference mode, {mode: statement}, statements per sample)
CASES = [
    ("rank-0 int32 add", "0-d arrays, np.add",
     {"Python ints, a + b": "a + b", "numpy int32 scalars, a + b": "sa + sb",
      "0-d arrays, np.add": "np.add(za, zb)"}, STATEMENTS),
    ("rank-0 float32 add", "0-d arrays, np.add",
     {"numpy float32 scalars, a + b": "fa + fb", "0-d arrays, np.add": "np.add(zfa, zfb)"},
     STATEMENTS),
    ("element of a 10,000-int32 array by a Python int", "x.item(i)",
     {"memoryview, view[i]": "view[i]", "x.item(i)": "ints.item(i)", "x[i]": "ints[i]"},
     STATEMENTS),
    ("i + 1 on a Python int", "without the test",
     {"with the int32 wraparound test": "j = i + 1\nif j > 2147483647: j = 0",
      "without the test": "j = i + 1"}, STATEMENTS),
    ("ignoring float warnings (enter and leave)", "np.errstate(all='ignore')",
     {"np.errstate(all='ignore')": "with np.errstate(all='ignore'): pass",
      "context-variable switch (runtime/errstate.py)":
          "reset_errstate(set_errstate(IGNORE_ALL))"}, STATEMENTS),
]


def _blas_case():
    """The BLAS rows' case, or None without threadpoolctl."""
    if importlib.util.find_spec("threadpoolctl") is None:
        return None
    rng = np.random.default_rng(0)
    extra = {"x": rng.normal(size=(128, 256)).astype(np.float32),
             "w": rng.normal(size=(256, 256)).astype(np.float32),
             "one_thread": blas_threads.one_thread, "restore": blas_threads.restore}
    return extra, [
        # The one-thread mode switches once per sample: what a plan run pays is below.
        ("128x256 @ 256x256 float32", "numpy's default BLAS threads",
         {"numpy's default BLAS threads": "x @ w", ONE_THREAD: "x @ w"}, 200),
        ("switch to one BLAS thread and back (runtime/blas_threads.py)", None,
         {"one_thread() and restore()": "restore(one_thread())"}, 2_000),
    ]


def _sampler(mode, timer, number):
    if mode != ONE_THREAD:
        return lambda: timer.timeit(number)

    def on_one_thread():
        previous = blas_threads.one_thread()
        try:
            return timer.timeit(number)
        finally:
            blas_threads.restore(previous)

    return on_one_thread


def _case_rows(namespace, workload, reference, statements, number, repeats):
    timers = {mode: timeit.Timer(code, globals=namespace) for mode, code in statements.items()}
    samples = interleaved_samples({mode: _sampler(mode, timer, number)
                                   for mode, timer in timers.items()}, repeats, warmup=1)
    medians = {mode: sorted(v)[len(v) // 2] / number for mode, v in samples.items()}
    rows = []
    for mode, values in samples.items():
        seconds = medians[mode]
        rows.append(row(workload, mode, seconds, (max(values) - min(values)) / number / seconds,
                        reference, medians[reference] if reference else None))
    if workload.startswith("i + 1"):  # the test's own cost, as the prose cites it
        rows[0]["test_seconds"] = medians[rows[0]["mode"]] - medians[reference]
    return rows


def measure(repeats=15):
    namespace = _namespace()
    cases = list(CASES)
    blas = _blas_case()
    if blas is not None:
        namespace.update(blas[0])
        cases += blas[1]
    rows = []
    for workload, reference, statements, number in cases:
        rows += _case_rows(namespace, workload, reference, statements, number, repeats)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    print(results_table(measure(args.repeats)))


if __name__ == "__main__":
    main()
