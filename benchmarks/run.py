"""Run every benchmark in benchmarks/ and print one markdown table (issue 7).

Usage: `python benchmarks/run.py [--only NAME ...] [--json PATH]`.

Each module of this folder (except `_harness` and this file) has a `measure()` returning
rows (`_harness.row`): workload, mode, median time (or peak bytes), spread, and the ratio
to the reference named in the row, all taken within one run. When `tensorflow` is
importable, the same workloads also run there in the equivalent mode (eager,
`tf.function`, a TF1-style graph through `tf.compat.v1.Session`, `tf.autograph.to_code`)
and the TensorFlow columns show its time and ours / TF; when it is not, they say
"not installed". TensorFlow is never a dependency. Nothing is asserted: the targets and
the numbers of a reference machine are in docs/performance.md.
"""

import argparse
import importlib
import os
import pathlib
import platform
import sys
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _harness import results_table, tensorflow, write_json  # noqa: E402


def benchmark_names():
    return sorted(p.stem for p in HERE.glob("*.py")
                  if not p.stem.startswith("_") and p.stem != "run")


def environment():
    import numpy as np

    tf = tensorflow()
    return {"python": platform.python_version(), "numpy": np.__version__,
            "tensorflow": tf.__version__ if tf is not None else "not installed",
            "cpus": os.cpu_count(), "machine": platform.machine(),
            "platform": platform.platform()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=benchmark_names(),
                        help="run only these benchmark modules")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    rows, failed = [], []
    for name in args.only or benchmark_names():
        start = time.perf_counter()
        try:
            measured = importlib.import_module(name).measure()
        except Exception:  # one broken benchmark must not lose the others' numbers
            traceback.print_exc()
            failed.append(name)
            continue
        rows += [{"benchmark": name, **r} for r in measured]
        print(f"{name}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    env = environment()
    print(f"python {env['python']}, numpy {env['numpy']}, TensorFlow {env['tensorflow']}, "
          f"{env['cpus']} CPUs ({env['machine']})\n")
    print(results_table(rows))
    if failed:
        print(f"\nfailed (see the tracebacks above): {', '.join(failed)}")
    if args.json:
        write_json(args.json, {"environment": env, "rows": rows, "failed": failed})
    return rows


if __name__ == "__main__":
    main()
