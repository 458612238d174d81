"""`python -m tests.realcode [MODULE ...]`: the real-code harness over the stdlib.

Prints one line per module, then

    REALCODE modules=N tests=N newly_failing=N invalid=N expected=N

`tests` counts the tests that pass on the unconverted copy (the ones conversion can
break), `newly_failing` those of them that do not pass converted in at least one
fast-path setting, `invalid` the converted files that are not valid Python, `expected`
the failures listed in `modules.EXPECTED` with the reason conversion cannot remove them
(`no_longer_failing=N` follows when some of those pass). The exit status is 0 only when
newly_failing, invalid and no_longer_failing are 0. See docs/realcode.md.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from tests.realcode.harness import SETTINGS, Converter, check_module
from tests.realcode.modules import BY_NAME, EXPECTED, MODULES


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m tests.realcode", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"harness names (default: all {len(MODULES)}): "
                             + " ".join(m.name for m in MODULES))
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="modules checked at once (default 1)")
    parser.add_argument("--fast-path", choices=["on", "off", "both"], default="both",
                        help="converted runs with the fast path on (default environment), "
                             "off (AUTOGRAPH_FAST_PATH=0) or both (default)")
    parser.add_argument("--keep", metavar="DIR",
                        help="build the trees in DIR and keep them (default: a temporary "
                             "folder, removed at the end)")
    parser.add_argument("--timeout", type=int, default=None,
                        help="seconds per test-module run (default: the module's, 600)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every outcome (per module, per setting) to FILE")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list each newly failing test with its first error line")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in BY_NAME]
    if unknown:
        parser.error(f"unknown module(s): {', '.join(unknown)}")
    return args


def settings_of(choice):
    return list(SETTINGS) if choice == "both" else [choice]


def report_line(result):
    m = result.module
    passing = len(result.baseline_passing)
    parts = [f"{m.name:<20} tests={passing:<5}"]
    for setting, run in result.converted.items():
        parts.append(f"{setting}:newly_failing={len(result.newly_failing(setting))}")
        if result.expected_failing(setting):
            parts.append(f"{setting}:expected={len(result.expected_failing(setting))}")
        if run.problem:
            parts.append(f"[{setting}: {run.problem}]")
    if result.base.problem:
        parts.append(f"[baseline: {result.base.problem}]")
    if result.invalid:
        parts.append(f"invalid={len(result.invalid)}")
    if result.unconverted:
        parts.append(f"files_with_problems={len(result.unconverted)}")
    parts.append(f"({result.seconds:.0f}s)")
    return " ".join(parts)


def details(result):
    lines = []
    for path, error in result.invalid.items():
        lines.append(f"    invalid: {path}: {error}")
    for messages in result.unconverted.values():
        for message in messages:
            lines.append(f"    convert: {message}")
    seen = {}
    for setting in result.converted:
        for test, outcome in result.newly_failing(setting).items():
            seen.setdefault(test, (outcome, []))[1].append(setting)
    for test, (outcome, settings) in seen.items():
        where = f" at {outcome['where']}" if outcome.get("where") else ""
        lines.append(f"    {test} [{','.join(settings)}] {outcome['status']}: "
                     f"{outcome.get('error')}{where}")
    for setting in result.converted:
        for test in result.expected_failing(setting):
            lines.append(f"    expected [{setting}]: {test}: {EXPECTED[test][1]}")
        for test in result.unexpectedly_passing(setting):
            lines.append(f"    passes, no longer expected to fail [{setting}]: {test}")
    return lines


def as_json(result):
    return {"module": result.module.name, "test": result.module.test,
            "seconds": result.seconds, "conversion": result.conversion,
            "base": vars(result.base),
            "converted": {s: vars(r) for s, r in result.converted.items()},
            "newly_failing": {s: result.newly_failing(s) for s in result.converted}}


def main(argv=None):
    args = parse(argv)
    modules = [BY_NAME[m] for m in args.modules] if args.modules else MODULES
    work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="realcode-")
    os.makedirs(work, exist_ok=True)
    converter = Converter(work, timeout=args.timeout or 600)
    settings = settings_of(args.fast_path)
    results = []
    try:
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = [pool.submit(check_module, m, work, converter, settings, args.timeout)
                       for m in modules]
            for future in futures:
                result = future.result()
                results.append(result)
                print(report_line(result), flush=True)
                if args.verbose:
                    for line in details(result):
                        print(line, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([as_json(r) for r in results], f, indent=1)
    tests = sum(len(r.baseline_passing) for r in results)
    newly = sum(len(r.all_newly_failing()) for r in results)
    invalid = sum(len(r.invalid) for r in results)
    expected = sum(len(r.all_expected_failing()) for r in results)
    stale = sum(len(r.all_unexpectedly_passing()) for r in results)
    print(f"REALCODE modules={len(results)} tests={tests} newly_failing={newly} "
          f"invalid={invalid} expected={expected}"
          + (f" no_longer_failing={stale}" if stale else ""))
    return 0 if newly == 0 and invalid == 0 and stale == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
