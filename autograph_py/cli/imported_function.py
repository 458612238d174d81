"""What `autograph graph` and `autograph export` share: the arguments naming a function
of a file, and loading that function by importing the file.

Contract:
- `add_function_arguments(parser, verb)` adds FILE, `-f/--function NAME`,
  `-s/--signature SPECS` and `--instance EXPR` (help text says what `verb` does with it).
- `load_function(args, specs)` imports FILE (its top-level code runs, as `import` runs
  it; FILE's directory first on `sys.path`), looks NAME up (a dotted path; a method
  named through its class is bound to `--instance`'s value: cli.method) and returns the
  function. A missing file or name is a `UsageError` (with close matches), a file that
  fails to import a `Problem` located at the user's line. The caller sends standard
  output to standard error around it (the command's output is its own).
- `check_output_path(path, what)`: a `UsageError` for a directory (asking for `what`)
  or a path whose directory does not exist.
"""

import difflib
import importlib.util
import os
import sys

from autograph_py.cli.locate import describe, user_line
from autograph_py.cli.method import resolve_method
from autograph_py.cli.render import Problem
from autograph_py.cli.source import UsageError


def add_function_arguments(parser, verb):
    parser.add_argument("file", metavar="FILE", help="the Python file defining the function")
    parser.add_argument("-f", "--function", required=True, metavar="NAME",
                        help=f"the function to {verb}: 'name', or a dotted path 'obj.method'")
    parser.add_argument("-s", "--signature", default="", metavar="SPECS",
                        help="its tensor arguments, e.g. \"float32[None, 3], int32[]\" "
                             "(dims: ints, None or ?; [] a scalar, [...] any rank)")
    parser.add_argument("--instance", metavar="EXPR",
                        help="for -f Class.method: a Python expression, evaluated in FILE's "
                             f"namespace after the import, giving the instance to {verb} the "
                             "method of, e.g. \"Model(units=3)\" (it runs that code)")


def load_function(args, specs):
    module = _import(args.file)
    owner, attribute, fn = _lookup(module, args.function, args.file)
    return resolve_method(owner, attribute, fn, name=args.function, path=args.file,
                          module=module, specs_count=len(specs),
                          instance_expr=args.instance)


def check_output_path(path, what):
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory; name {what}")
    parent = os.path.dirname(path) or "."
    if not os.path.isdir(parent):
        raise UsageError(f"{path}: directory {parent} does not exist")


def _import(path):
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UsageError(f"{path}: is a directory; give the Python file that defines the "
                         "function")
    stem = os.path.splitext(os.path.basename(path))[0]
    # The module gets its file's name, as `import` gives it (dataclasses, pickling and
    # converted code look modules up in sys.modules), unless that name is taken.
    name = stem if stem.isidentifier() and stem not in sys.modules else "__autograph_graph__"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise Problem(f"{e.filename}:{e.lineno}:{e.offset}: {e.msg}") from e
    except SystemExit as e:
        raise Problem(f"{path}: the file called sys.exit({e.code!r}) while being imported; "
                      "put its script part under if __name__ == '__main__':") from e
    except Exception as e:
        where = user_line(e, path) or path
        raise Problem(f"{where}: importing {path} raised {describe(e)}") from e
    return module


def _lookup(module, name, path):
    """(the object holding the last part of `name`, that part, its value)."""
    owner, value = None, module
    for part in name.split("."):
        try:
            owner, value = value, getattr(value, part)
        except AttributeError:
            known = sorted(k for k, v in vars(module).items() if _defined_in(v, module))
            close = difflib.get_close_matches(name, known, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UsageError(f"{path}: no function named {name!r}{hint}") from None
    if not callable(value):
        raise UsageError(f"{path}: {name} is a {type(value).__name__}, not a function")
    return owner, part, value


def _defined_in(value, module):
    return callable(value) and getattr(value, "__module__", None) == module.__name__
