"""The files one `autograph convert` run handles, and their conversion.

Contract:
- `plan(inputs, destinations) -> (units, problems)`: one `Unit` per input file, and for
  an input folder (`cli.tree.walk_folder`) one per file and folder in it, in order: its
  `.py` files are converted, its other files copied and its folders made, under the
  folder's destination with the same relative paths (`pkg/sub/m.py` into
  `out/pkg/sub/m.py`). Without a destination (standard output, `--diff`, `--check`) a
  folder gives only its `.py` files. `problems` are `file: message` lines (status 1) of
  what a folder holds that is neither converted nor copied.
- `convert_units(units, functions, jobs, debug)` reads and converts every "convert"
  unit, setting `unit.result` (a `cli.convert.Result`, or None when the file could not
  be read or converted) and `unit.messages` (`(line, status, traceback text or None)`,
  in the order to report them). A file of a folder that is read but cannot be
  converted (a syntax error, not UTF-8, ...) gets `unit.copy_as_written` when it has a
  destination, and its message says so: the output package stays complete.
  Several files are converted in up to `jobs` forked processes (`cli.parallel`, one
  file at a time each), a single file's functions likewise; results and messages are
  the same for every `jobs`.
"""

import dataclasses
import functools
import os
import traceback

from autograph_py.cli.convert import convert_text
from autograph_py.cli.parallel import map_forked
from autograph_py.cli.source import STDIN, UsageError, read_input
from autograph_py.cli.tree import walk_folder
from autograph_py.converters.errors import ConversionError

OK, PROBLEMS, USAGE = 0, 1, 2


@dataclasses.dataclass
class Unit:
    source: str  # a path, or "-" for standard input
    destination: str = None
    kind: str = "convert"  # "convert", "copy" or "folder"
    in_folder: bool = False
    result: object = None
    messages: list = dataclasses.field(default_factory=list)
    copy_as_written: bool = False


def plan(inputs, destinations):
    units, problems = [], []
    for source, destination in zip(inputs, destinations):
        if source == STDIN or not os.path.isdir(source):
            units.append(Unit(source, destination))
            continue
        entries, walk_problems = walk_folder(source, copies=destination is not None)
        problems += [f"{path}: {message}" for path, message in walk_problems]
        if destination is not None:
            units.append(Unit(source, destination, "folder", True))
        for path, relative, kind in entries:
            target = None if destination is None else os.path.join(destination, relative)
            units.append(Unit(path, target, kind, True))
    return units, problems


def convert_units(units, functions, jobs, debug):
    todo = [unit for unit in units if unit.kind == "convert"]
    texts = [_read(unit, debug) for unit in todo]
    items = [(unit, name, text) for unit, (name, text) in zip(todo, texts) if text is not None]
    # Several files: each converted whole in one process, files spread over `jobs`; one
    # file: its functions spread over them.
    file_jobs, function_jobs = (jobs, 1) if len(items) > 1 else (1, jobs)
    job = functools.partial(_convert_item, functions, function_jobs, debug)
    outcomes = map_forked(job, [(unit.in_folder and unit.destination is not None, name, text)
                                for unit, name, text in items], file_jobs,
                          [text.count("\n") + 1 for _, _, text in items])
    for (unit, _, _), (result, messages, copy) in zip(items, outcomes):
        unit.result, unit.copy_as_written = result, copy
        unit.messages += messages


def _read(unit, debug):
    """(name, text), or (None, None) with the reason in `unit.messages`."""
    try:
        return read_input(unit.source)
    except UsageError as e:
        unit.messages.append(_message(str(e), USAGE, e, debug))
    except ConversionError as e:  # not UTF-8, too large: the package still needs it
        unit.copy_as_written = unit.in_folder and unit.destination is not None
        unit.messages.append(_message(_copied(str(e), unit.copy_as_written), PROBLEMS, e,
                                      debug))
    return None, None


def _convert_item(functions, jobs, debug, item):
    """(Result or None, messages, copy as written) for one file's text; never raises."""
    copies, name, text = item
    try:
        result = convert_text(text, name, functions, jobs)
    except ConversionError as e:
        return None, [_message(_copied(str(e), copies), PROBLEMS, e, debug)], copies
    except Exception as e:  # a bug in autograph, not in the input: say so, and go on
        return None, [_message(_copied(
            f"{name}: internal error while converting: {type(e).__name__}: {e} (run with "
            "--debug for the traceback)", copies), PROBLEMS, e, debug)], copies
    messages = [_message(str(problem), PROBLEMS, problem, debug)
                for problem in result.problems]
    messages += [(note, OK, None) for note in result.notes]
    return result, messages, False


def _copied(message, copies):
    return f"{message}; copied as written" if copies else message


def _message(line, status, error, debug):
    # Tracebacks as text: a message may come from a forked process (cli.parallel).
    trace = "".join(traceback.format_exception(error)) if debug and error else None
    return line, status, trace
