"""`autograph export FILE --function NAME --signature SPECS -o MODEL.onnx`: one traced
function written as an ONNX model (`ag.onnx.export`, docs/export.md).

Contract (docs/cli.md's `autograph graph` section holds for this command too):
- Tracing needs the function object, so this IMPORTS FILE, as `autograph graph` does,
  and follows its rule (cli/imported_function.py): the file's top-level code runs (not its
  `if __name__ == "__main__":` block), whatever it prints goes to standard error, FILE's
  directory comes first on `sys.path`; NAME is looked up the same way (a dotted path, a
  method traced on `--instance EXPR`, never on an instance the command makes); the
  signature is parsed by `cli.signature`. Nothing more of the user's code runs than the
  import, the trace and, with `--instance`, the expression they typed.
- The model is written to `-o` atomically (a regular file) or through (a device, a
  FIFO); `-o -` writes its bytes to standard output.
- Failures: `UsageError` (exit status 2) for what `autograph graph` calls usage errors;
  `Problem` (exit status 1) for an import or trace failure, for an op the export refuses
  (its message names the op and the user's file:line), and for a missing `[onnx]` extra.
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
from autograph_py.cli.render import Problem
from autograph_py.cli.source import UsageError

DESCRIPTION = """\
Trace one function of FILE on the given signature and write it as an ONNX model (one
pinned opset; If -> If, while/for -> Loop). This IMPORTS FILE, which runs its top-level
code (unlike `autograph convert`, which never runs it), as `autograph graph` does."""

EXAMPLES = """\
examples:
  autograph export model.py -f step -s "float32[None, 3]" -o step.onnx
  autograph export examples/seed.py -f sum_even -s "int32[None]" -o sum_even.onnx
  autograph export model.py -f Model.call -s "float32[None, 3]" --instance "Model()" -o m.onnx

exit status: 0 written, 1 the file failed to import, the function to trace, or an op
cannot be exported (named with your file:line), 2 usage errors
"""


def add_parser(commands):
    parser = commands.add_parser(
        "export", help="write a traced function as an ONNX model (imports, so runs, the "
                       "file)",
        description=DESCRIPTION, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_function_arguments(parser, "export")
    parser.add_argument("-o", "--output", required=True, metavar="MODEL",
                        help="the .onnx file to write ('-' for standard output)")
    parser.add_argument("--debug", action="store_true",
                        help="show Python tracebacks with error messages")
    return parser


def run(args):
    from autograph_py.cli.output import write_output
    from autograph_py.cli.signature import parse_signature

    specs = parse_signature(args.signature)
    _check_output(args.output)
    with contextlib.redirect_stdout(sys.stderr):
        fn = load_function(args, specs)
        model = _export(fn, specs, args)
    data = model.SerializeToString()
    if args.output == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        write_output(args.output, data)
    except OSError as e:
        raise UsageError(f"{args.output}: cannot write: {e.strerror or e}") from e


def _check_output(output):
    if output != "-":
        check_output_path(output, "the model file, e.g. model.onnx")


def _export(fn, specs, args):
    import autograph_py as ag  # the package's API connects the runtime's hooks

    try:
        traced = fn if hasattr(fn, "get_concrete_function") else ag.function(fn)
        return ag.onnx.export(traced, *specs)
    except ImportError as e:
        raise Problem(f"autograph export: {e}") from e
    except ag.onnx.ExportError as e:
        raise Problem(str(e)) from e
    except ag.ConversionError as e:
        raise Problem(str(e)) from e
    except Exception as e:
        where = user_line(e, args.file) or format_location(definition(fn)) or args.file
        raise Problem(f"{where}: cannot trace {args.function}({args.signature.strip()}): "
                      f"{describe(e)}") from e
