"""`python -m tests.fuzz --count N --seed S`: run the differential fuzzer, print a summary.

Prints one line per failing program (each failing mode with its error or first wrong
answer), each new kind of failure minimized (with `--write-cases`, also written to
tests/fuzz/cases/), the failures and rejections per kind, how many programs ran a loop
the vectorization pass vectorized (their staged answers also compared with the pass
off: tests/fuzz/runner.py), and last the line
`FUZZ {matches}/{total} wrong={w} crash={c} hang={h} rejected={r}` (counting rule:
tests/fuzz/campaign.py).
"""

import argparse
import sys

from tests.fuzz.campaign import run_campaign
from tests.fuzz.cases import CASES_DIR


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--count", type=int, default=100, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="program i uses seed + i")
    parser.add_argument("--minimize", action=argparse.BooleanOptionalAction, default=True,
                        help="minimize each new kind of failure (default: on)")
    parser.add_argument("--minimize-seconds", type=float, default=10.0,
                        help="time budget for minimizing, over the whole run")
    parser.add_argument("--write-cases", action="store_true",
                        help="write each minimized failure as a case file")
    parser.add_argument("--cases-dir", default=str(CASES_DIR),
                        help="where --write-cases writes (default: tests/fuzz/cases/)")
    parser.add_argument("--per-kind", type=int, default=1,
                        help="programs to minimize per kind of failure (default: 1)")
    parser.add_argument("--timeout", type=float, default=3.0,
                        help="seconds a mode may take on one program before it is a hang")
    args = parser.parse_args(argv)
    summary = run_campaign(args.seed, args.count, minimize=args.minimize,
                           minimize_seconds=args.minimize_seconds,
                           write_cases=args.cases_dir if args.write_cases else None,
                           seconds=args.timeout, per_kind=args.per_kind)
    print(f"distinct failures: {len(summary.failures)}")
    for (outcome, kind, message), n in summary.failures.most_common():
        print(f"  {n:5d} {outcome} {kind} {message}".rstrip())
    print("rejections per kind: " + (", ".join(
        f"{kind}={n}" for kind, n in sorted(summary.rejections.items())) or "none"))
    print(f"programs with a vectorized loop (answers compared with the pass off): "
          f"{summary.vectorized}")
    print(summary.last_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
