"""Write docs/performance.md from one run of every benchmark, in one process.

Usage:
  python benchmarks/performance_doc.py                 # the page, and its numbers as JSON
  python benchmarks/performance_doc.py --quick --output /tmp/performance.md
  python benchmarks/performance_doc.py --from-json docs/performance.json

The page is its template (docs/performance.md.in: the prose, with no measured number of
its own) filled with the rows of one run (`_docgen` says how placeholders work). A run
imports every benchmark module (`_suite.benchmark_names()`: any module here defining
`measure()`) and calls its `measure()` once, in turn, in this process; the rows, the
environment and the command are written first to the JSON beside the page
(docs/performance.json), then the page. A template that names a row the run lacks
fails loudly, after the JSON is safe: fix the template and re-render those numbers with
`--from-json` (no benchmark runs again). `--quick` takes few samples to check the whole
chain end to end; its numbers are not for reading, so it needs `--output` elsewhere.
Exit status: 0, 1 when a module failed (its section says so), 2 when the template is
wrong.
"""

import argparse
import json
import pathlib
import shlex
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _docgen import TemplateError, check_template, render  # noqa: E402
from _harness import write_json  # noqa: E402
from _suite import ROOT, benchmark_names, environment, run_modules  # noqa: E402

TEMPLATE = ROOT / "docs" / "performance.md.in"
PAGE = ROOT / "docs" / "performance.md"


def command_line(argv):
    """How to make this run again, as typed from the repository's root."""
    python = "python" if sys.prefix == sys.base_prefix else sys.executable
    return shlex.join([python, str(pathlib.Path(__file__).resolve().relative_to(ROOT)), *argv])


def _arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=pathlib.Path, default=PAGE,
                        help=f"the page to write (default {PAGE.relative_to(ROOT)}); the JSON "
                             "of the run goes beside it")
    parser.add_argument("--template", type=pathlib.Path, default=TEMPLATE)
    parser.add_argument("--quick", action="store_true",
                        help="few samples, to check the generator; needs --output elsewhere")
    parser.add_argument("--from-json", type=pathlib.Path, metavar="PATH",
                        help="render a saved run again instead of running the benchmarks")
    args = parser.parse_args(argv)
    if args.quick and args.output.resolve() == PAGE:
        parser.error("--quick numbers are not for reading: give --output another path")
    args.output.parent.mkdir(parents=True, exist_ok=True)  # before minutes of measuring
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = _arguments(argv)
    template = args.template.read_text(encoding="utf-8")
    if args.from_json:
        run = json.loads(args.from_json.read_text(encoding="utf-8"))
        if run["quick"] and args.output.resolve() == PAGE:
            print(f"{args.from_json} is a --quick run: not for {PAGE}", file=sys.stderr)
            return 2
    else:
        # Before a run of many minutes: every placeholder parses and names a module.
        check_template(template, benchmark_names())
        start = time.perf_counter()
        run = {"command": command_line(argv), "quick": args.quick,
               "environment": environment()}
        run.update(run_modules(benchmark_names(), quick=args.quick))
        print(f"all modules: {time.perf_counter() - start:.0f} s", file=sys.stderr)
        write_json(args.output.with_suffix(".json"), run)
    try:
        page = render(template, run)
    except TemplateError as error:
        print(f"{args.template} names what this run does not have:\n{error}\n"
              f"Fix the template, then: python benchmarks/performance_doc.py --from-json "
              f"{args.from_json or args.output.with_suffix('.json')} --output {args.output}",
              file=sys.stderr)
        return 2
    args.output.write_text(page, encoding="utf-8")
    print(f"wrote {args.output}", file=sys.stderr)
    return 1 if run["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
