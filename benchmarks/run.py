"""Run every benchmark in benchmarks/ and print one markdown table.

Usage: `python benchmarks/run.py [--only NAME ...] [--quick] [--json PATH]`.

Each benchmark module of this folder (any module defining `measure()`, see `_suite`) has
a `measure()` returning rows (`_harness.row`): workload, mode, median time (or peak
bytes), spread, and the ratio to the reference named in the row, all taken within one
run. When `tensorflow` is importable, the same workloads also run there in the
equivalent mode (eager, `tf.function`, a TF1-style graph through `tf.compat.v1.Session`,
`tf.autograph.to_code`) and the TensorFlow columns show its time and ours / TF; when it
is not, they say "not installed". TensorFlow is never a dependency. Nothing is asserted.
docs/performance.md is written from one such run by `benchmarks/performance_doc.py`.
"""

import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from _harness import results_table, write_json  # noqa: E402
from _suite import benchmark_names, environment, environment_line, run_modules  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=benchmark_names(),
                        help="run only these benchmark modules")
    parser.add_argument("--quick", action="store_true",
                        help="few samples: checks that everything runs, numbers not to read")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    env = environment()
    run = run_modules(args.only or benchmark_names(), quick=args.quick)
    print(environment_line(env) + "\n")
    print(results_table(run["rows"]))
    if run["failed"]:
        print(f"\nfailed (see the tracebacks above): {', '.join(run['failed'])}")
    if args.json:
        write_json(args.json, {"environment": env, **run})
    return run["rows"]


if __name__ == "__main__":
    main()
