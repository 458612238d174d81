"""The `autograph` command: `autograph convert PATH [PATH ...]` converts Python files and
package folders statically. Inputs are read and parsed, never imported or executed.
`autograph graph` (cli/graph.py) draws the graph of one traced function and
`autograph export` (cli/export.py) writes it as an ONNX model: those two import their file.

Contract (docs/cli.md is the user's version):
- Output: each file as a complete, importable module with every function converted
  (`cli.convert`; checked to compile, `cli.valid`), on standard output, into `-o PATH`
  (`cli.output.write_output`: a regular file atomically, a device or FIFO written
  through, a symlink's target), as a unified diff (`--diff`), or not at all
  (`--check`). `-f NAME` picks functions. A folder (a package) is converted into
  `-o DIR/<its name>/`, its tree mirrored: `.py` files converted, other files copied,
  `__pycache__` and hidden names left out (`cli.tree`, `cli.units`).
- Exit status: 0 when everything converted (notes, such as a generator or an async
  function left as written, do not count); 1 for conversion problems (not UTF-8, over
  the size or depth limits of `cli.limits`, a syntax error, a construct that cannot be
  converted, an output that would not compile, something in a folder neither converted
  nor copied, an internal error); 2 for usage errors (bad options, a missing or
  unreadable input, an output path that cannot be written, a `-f` name no input has).
  The highest status wins; every input is still processed, a file with an
  unconvertible function is still converted and written with that function left as
  written, and a file of a folder that cannot be converted is copied as written.
- Messages go to standard error as `file:line[:col]: message`; a Python traceback is
  shown only with `--debug`.
"""

import argparse
import difflib
import os
import stat
import sys
import traceback

import autograph_py.cli.export as export_command
import autograph_py.cli.graph as graph_command  # `from autograph_py import` would load the API
from autograph_py import __version__
from autograph_py.cli.output import check_destination, prepare_outputs, write_output
from autograph_py.cli.parallel import default_jobs
from autograph_py.cli.render import Problem
from autograph_py.cli.source import STDIN, STDIN_NAME, UsageError, split_lines
from autograph_py.cli.units import OK, PROBLEMS, USAGE, convert_units, plan

EXAMPLES = """\
examples:
  autograph convert model.py                  print model.py with every function converted
  autograph convert model.py -o model_ag.py   write it to model_ag.py, then: python model_ag.py
  autograph convert a.py b.py -o converted/   write converted/a.py and converted/b.py
  autograph convert mypkg/ -o build/          the package converted into build/mypkg/
  autograph convert model.py -f step -f Net.call
                                              print only these functions, as to_code does
  autograph convert model.py --diff           show what conversion changes
  autograph convert src/*.py --check          report problems only; exit status 1 if any
  cat model.py | autograph convert -          read standard input

exit status: 0 all converted, 1 conversion problems, 2 usage errors
"""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="autograph",
        description="Convert Python control flow over tensors into dataflow graphs.")
    parser.add_argument("--version", action="version", version=f"autograph {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    convert = commands.add_parser(
        "convert", help="convert Python files and packages (statically: never imports or "
                        "runs them)",
        description="Print each file as an importable module in which every function "
                    "(wherever it is defined; nested functions through their parents) is "
                    "converted. Functions decorated @do_not_convert stay as written, and "
                    "so do generators and async functions, with a note. A folder is "
                    "converted as a package: with -o DIR, into DIR/<its name>/ with its "
                    "other files copied. The input is never modified, imported or "
                    "executed.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    convert.add_argument("files", nargs="+", metavar="PATH",
                         help="a Python file, a folder (a package); '-' reads standard input")
    convert.add_argument("-f", "--function", action="append", dest="functions",
                         metavar="NAME", help="convert only this function ('name' or "
                         "'Class.method'), printed as to_code prints it; repeatable")
    where = convert.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", metavar="PATH",
                       help="write to PATH (a directory with several inputs or a folder) "
                            "atomically")
    where.add_argument("--check", action="store_true",
                       help="print nothing but problems; the exit status tells")
    where.add_argument("--diff", action="store_true",
                       help="print a unified diff of each file against its conversion")
    convert.add_argument("-j", "--jobs", type=_positive_int, default=None, metavar="N",
                         help="convert in up to N processes: several files, or a large "
                              "file's functions (default: one per CPU core; the output is "
                              "the same)")
    convert.add_argument("--debug", action="store_true",
                         help="show Python tracebacks with error messages")
    graph_command.add_parser(commands)
    export_command.add_parser(commands)
    return parser


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of processes, got {text!r}")
    return value


class _Reporter:
    """Prints problems to standard error and keeps the exit status (the highest seen)."""

    def __init__(self, debug):
        self.debug = debug
        self.status = OK

    def report(self, message, status, error=None, trace=None):
        if self.debug and (error is not None or trace):
            if trace:
                print(trace, end="", file=sys.stderr)
            else:
                traceback.print_exception(error)
        print(message, file=sys.stderr)
        self.status = max(self.status, status)


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return USAGE
    try:
        if args.command in ("graph", "export"):
            return _traced(args)
        return _convert(args)
    except KeyboardInterrupt:
        return 130  # the shell's convention for SIGINT; outputs are never half-written
    except BrokenPipeError:
        # The reader (`| head`) went away: stop quietly, and keep Python from complaining
        # again while it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return PROBLEMS


def _convert(args):
    reporter = _Reporter(args.debug)
    destinations = [None] * len(args.files)
    if args.output is not None:
        try:
            if args.functions and any(os.path.isdir(path) for path in args.files):
                raise UsageError(f"{args.output}: -f prints chosen functions, it does not "
                                 "write a package; drop -o, or -f")
            destinations = prepare_outputs(args.files, args.output)
        except (UsageError, OSError) as e:
            reporter.report(str(e), USAGE, e)
            return reporter.status
    units, problems = plan(args.files, destinations)
    for problem in problems:
        reporter.report(problem, PROBLEMS)
    convert_units(units, args.functions, default_jobs() if args.jobs is None else args.jobs,
                  args.debug)
    for unit in units:
        for line, status, trace in unit.messages:
            reporter.report(line, status, trace=trace)
    converted = [unit for unit in units if unit.result is not None]
    if args.functions:
        _report_unknown_functions(args.functions, [u.result for u in converted], reporter,
                                  ", ".join(STDIN_NAME if f == STDIN else f for f in args.files))
    if args.check:
        return reporter.status
    several = sum(unit.kind == "convert" for unit in units) > 1
    for unit in units:
        if args.diff:
            if unit.result is not None:
                _write_stdout(_diff(unit.result))
        elif unit.destination is not None:
            _write_unit(unit, reporter)
        elif unit.result is not None and (unit.result.output or not unit.in_folder):
            if several:
                _write_stdout(f"# ==> {unit.result.name} <==\n")
            _write_stdout(unit.result.output)
    return reporter.status


def _traced(args):
    """`autograph graph` and `autograph export`: both import the file and trace."""
    reporter = _Reporter(args.debug)
    try:
        (graph_command if args.command == "graph" else export_command).run(args)
    except UsageError as e:
        reporter.report(str(e), USAGE, e)
    except Problem as e:
        reporter.report(str(e), PROBLEMS, e)
    return reporter.status


def _report_unknown_functions(functions, results, reporter, where):
    known = set().union(*(r.names for r in results))
    for name in dict.fromkeys(functions):
        if name not in known and results:
            close = difflib.get_close_matches(name, sorted(known), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            reporter.report(f"{where}: no function named {name!r}{hint}", USAGE)


def _diff(result):
    def lines(text):
        # difflib needs every line ended, including a file's last one.
        return [line if line.endswith("\n") else line + "\n" for line in split_lines(text)]

    return "".join(difflib.unified_diff(lines(result.original), lines(result.output),
                                        result.name, f"{result.name} (converted)"))


def _write_stdout(text):
    # Converted source is UTF-8 whatever the terminal's locale, and keeps its own line
    # endings: write bytes.
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def _write_unit(unit, reporter):
    """Write a converted file, or (in a folder) copy a file or make a folder."""
    path = unit.destination
    try:
        if unit.kind == "folder":
            os.makedirs(path, exist_ok=True)
        elif unit.result is not None:
            if unit.in_folder:
                check_destination(unit.source, path)
            write_output(path, unit.result.output)
        elif unit.kind == "copy" or unit.copy_as_written:
            check_destination(unit.source, path)
            with open(unit.source, "rb") as source:
                write_output(path, source, stat.S_IMODE(os.fstat(source.fileno()).st_mode))
    except UsageError as e:
        reporter.report(str(e), USAGE, e)
    except OSError as e:
        reporter.report(f"{e.filename or path}: cannot write: {e.strerror or e}", USAGE, e)

