"""Write the generated source (`Plan.code`) of every plan of the corpus to one file.

Run: `python tests/runtime/plan/dump_plan_code.py OUT.txt` before and after a change to
the plan compiler, then `diff` the two files: a refactor of the compiler must leave them
equal (tests/runtime/plan/plan_corpus.py holds the cases). `--time N` also prints the
time compiling the whole corpus takes (the best of N rounds).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from autograph_py.runtime.plan.passes.pipeline import OPTIONAL  # noqa: E402
from plan_corpus import CASES, build, plan_of  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--time", type=int, default=0, metavar="N")
    parser.add_argument("--without", action="append", default=[], metavar="PASS",
                        help="compile without this optional pass (repeatable)")
    args = parser.parse_args(argv)
    built = {name: build(name) for name in CASES}
    passes = OPTIONAL - set(args.without)
    with open(args.out, "w") as f:
        for name, b in built.items():
            f.write(f"### {name}\n{plan_of(b, passes).code}\n")
    if args.time:
        best = min(_compile_all(built) for _ in range(args.time))
        print(f"compiling {len(built)} plans: {best * 1e3:.1f} ms (best of {args.time})")


def _compile_all(built):
    start = time.perf_counter()
    for b in built.values():
        plan_of(b)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
