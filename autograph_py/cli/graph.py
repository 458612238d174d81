"""`autograph graph FILE --function NAME --signature SPECS [-o OUT]`: a picture of a trace.

Contract (docs/cli.md and docs/visualize.md are the user's version):
- Unlike `convert`, this imports FILE, so it runs the file's top-level code (as
  `import` would: `if __name__ == "__main__":` blocks do not run). FILE's directory comes
  first on `sys.path`, as for `python FILE`. Whatever the file prints goes to standard
  error, so standard output holds only the DOT text.
- NAME (`f`, or a dotted path such as `model.step`) is traced with `ag.function` (an
  `ag.function` is used as it is) on the TensorSpecs of `--signature` (`cli.signature`),
  and the graph's `to_dot()` (`--collapse`: one node per If/While) is printed, or written
  to `-o OUT` as `.dot`, `.svg` or `.png` (`cli.render`). A method named through its
  class (`Model.step`) is traced on the instance `--instance EXPR` gives (`cli.method`:
  the command never constructs one unasked).
- Failures raise, and `cli.py` prints them as one line: `UsageError` (exit status 2) for
  a missing FILE, an unknown NAME (with close matches), a method without an instance,
  a signature that does not parse, an output that cannot be written; `Problem` (exit
  status 1) for a file that fails to import or a function that fails to trace, located
  at the user's `file:line` (the innermost line of FILE in the traceback, through the
  source maps of converted code; else the function's `def` line), and for rendering
  problems.
"""

import argparse
import contextlib
import sys

from autograph_py.cli.imported_function import (
    add_function_arguments,
    check_output_path,
    load_function,
)
from autograph_py.cli.locate import definition, describe, format_location, user_line
from autograph_py.cli.render import Problem, write_picture
from autograph_py.cli.source import UsageError
from autograph_py.converters.errors import ConversionError

DESCRIPTION = """\
Trace one function of FILE on the given signature and draw its graph: every op, with the
user's file:line, each If branch and While cond/body as a nested cluster. This IMPORTS
FILE, which runs its top-level code (unlike `autograph convert`, which never runs it)."""

EXAMPLES = """\
examples:
  autograph graph model.py -f step -s "float32[None, 3], int32[]" -o step.svg
  autograph graph model.py -f Model.call -s "float32[None, 3]" --instance "Model(units=4)"
  autograph graph examples/seed.py -f sum_even -s "int32[None]" -o sum_even.png
  autograph graph model.py -f step -s "float32[None, 3], int32[]" --collapse > step.dot

output: .svg and .png need Graphviz's dot (or pip install graphviz-pure); without it
the .dot is written and a line says how to install Graphviz.
exit status: 0 written, 1 the file failed to import or the function to trace (or to
render), 2 usage errors (no such file or function, a method without --instance, a
bad signature or output path)
"""


def add_parser(commands):
    parser = commands.add_parser(
        "graph", help="draw the graph of a traced function (imports, so runs, the file)",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_function_arguments(parser, "trace")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write OUT.svg, OUT.png or OUT.dot (default: DOT text on "
                             "standard output)")
    parser.add_argument("--collapse", action="store_true",
                        help="one node per If/While instead of clusters (large graphs)")
    parser.add_argument("--debug", action="store_true",
                        help="show Python tracebacks with error messages")
    return parser


def run(args):
    # The runtime (numpy) is imported here, not with this module: `autograph convert`
    # builds this command's parser too, and starts without it.
    from autograph_py.cli.signature import parse_signature

    specs = parse_signature(args.signature)
    _check_output(args.output)
    with contextlib.redirect_stdout(sys.stderr):
        fn = load_function(args, specs)
        graph = _trace(fn, specs, args)
    dot_text = graph.to_dot(collapse=args.collapse)
    if args.output is None:
        sys.stdout.write(dot_text)
        sys.stdout.flush()
        return
    try:
        write_picture(dot_text, args.output)
    except OSError as e:
        raise UsageError(f"{args.output}: cannot write: {e.strerror or e}") from e


def _check_output(output):
    if output is not None:
        check_output_path(output, "the picture file, e.g. graph.svg")


def _trace(fn, specs, args):
    from autograph_py import function  # the package's API connects the runtime's hooks

    try:
        traced = fn if hasattr(fn, "get_concrete_function") else function(fn)
    except TypeError as e:  # nothing to trace: a generator or an async function
        raise Problem(str(e)) from e
    command_lines = _active_lines()
    try:
        graph = traced.get_concrete_function(*specs).graph
    except ConversionError as e:
        raise Problem(str(e)) from e
    except Exception as e:
        where = user_line(e, args.file) or format_location(definition(fn)) or args.file
        signature = args.signature.strip()
        raise Problem(f"{where}: cannot trace {args.function}({signature}): "
                      f"{describe(e)}") from e
    # Ops that tracing itself creates (the placeholders of the arguments, the outputs) are
    # located at the code that asked for the trace: in a program, the user's call; here,
    # this command, which is no user code. They belong to the function: its def line.
    def_line = definition(fn)
    for op in _all_ops(graph):
        if op.location in command_lines:
            op.location = def_line
    return graph


def _active_lines():
    """(file, line) of every frame running now: this command's own lines."""
    frame, lines = sys._getframe(1), set()
    while frame is not None:
        lines.add((frame.f_code.co_filename, frame.f_lineno))
        frame = frame.f_back
    return lines


def _all_ops(graph):
    from autograph_py.runtime.views.view import subgraphs

    for op in graph.get_operations():
        yield op
        for _, sub in subgraphs(op):
            yield from _all_ops(sub)
