"""Run one program as plain Python (the oracle) and converted in every mode; compare.

`run(source, inputs)` loads the module text `source` from a file of its own (so
`ag.to_graph` can read the function's source), calls its `f` on each `(a, b, xs)` input
as plain Python, then converted in each mode of `MODES`:
- python:   `ag.to_graph(f)` on Python values;
- eager:    `ag.to_graph(f)` on eager tensors (`ag.constant`, xs as int32);
  both on the converted path (tests/converted_path.py): as written, they would be the
  oracle again;
- graph:    `ag.to_graph(f)` on placeholders (a, b scalars, xs of shape (None,)) in a
            fresh `ag.Graph`, one `ag.Session` run per input;
- function: `ag.function(f)` with an int32 input signature (one trace), called on
            eager tensors.
A program on values no tensor can be (strings, dicts...: `Program.python_only`) runs in
the python mode only (`modes_of`).
Each mode ends as one outcome: match, wrong (some input gave another answer), crash (an
error that is not a documented rejection), hang (no answer within the time limit: see
`hang_limit`), or
rejected (an error that rejections.py recognizes as documented; only the staged modes,
graph and function, may reject, since the others must be Python, except for the rules
of tensors themselves, eager ones too (`Rejection.eager`); a recognized error whose
premise is false is a crash, "false rejection"). Results compare exactly: ints
stay ints, bools stay bools, tuples stay tuples.
"""

import atexit
import contextlib
import dataclasses
import importlib.util
import itertools
import re
import shutil
import signal
import tempfile
import time
import warnings

import numpy as np

import autograph_py as ag
from tests.converted_path import converted_path
from tests.fuzz.rejections import classify

MODES = ("python", "eager", "graph", "function")
STAGED_MODES = ("graph", "function")
# A program counts once, under the worst outcome of its modes, in this order.
SEVERITY = ("wrong", "hang", "crash", "rejected", "match")

_workdir = tempfile.mkdtemp(prefix="autograph_fuzz_")
atexit.register(shutil.rmtree, _workdir, ignore_errors=True)
_module_ids = itertools.count()


class Hang(BaseException):
    """The time limit passed (a BaseException, so the program's `except` cannot catch it)."""


class OracleError(Exception):
    """The program fails (or hangs) as plain Python: it is not a valid test program."""


# A mode may take this many times the oracle's time (eager tensors cost hundreds of
# times what Python ints do), and never less than the floor (`seconds` of `run`):
# converting and building a graph cost the same whatever the program computes.
ORACLE_MULTIPLE = 1000
# A hang that blocks (waits, sleeps) uses no CPU: the wall clock catches it, this many
# times later than the CPU limit, so a loaded machine does not make a false one.
WALL_FACTOR = 20


def hang_limit(oracle_seconds, floor):
    """The CPU seconds a mode may take on a program the oracle ran in `oracle_seconds`."""
    return max(floor, ORACLE_MULTIPLE * oracle_seconds)


@contextlib.contextmanager
def time_limit(seconds):
    """Raises Hang once the process has used `seconds` of CPU time (user + system), which
    a machine busy with other work does not inflate as it does wall time, or after
    WALL_FACTOR times as long on the wall clock."""
    def expire(signum, frame):
        clock = "CPU" if signum == signal.SIGPROF else "wall-clock"
        limit = seconds if signum == signal.SIGPROF else seconds * WALL_FACTOR
        raise Hang(f"no result after {limit:.3g} s of {clock} time")

    previous = {signum: signal.signal(signum, expire)
                for signum in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@dataclasses.dataclass
class ModeResult:
    mode: str
    outcome: str
    detail: str = ""  # the error, or the first differing answer
    kind: str = ""  # the rejection kind, or the error's type for a crash

    def signature(self):
        """What makes two failures of a mode the same bug (to deduplicate and minimize):
        the outcome, the error's type (or the kind of wrong answer) and its message
        without numbers and quoted names."""
        message = error_key(self.detail) if self.outcome in ("crash", "rejected") else ""
        return (self.outcome, self.kind, message)


@dataclasses.dataclass
class Report:
    expected: list  # the oracle's answer per input
    modes: dict  # mode -> ModeResult

    @property
    def outcome(self):
        outcomes = {r.outcome for r in self.modes.values()}
        return next(o for o in SEVERITY if o in outcomes)

    def failures(self):
        return [r for r in self.modes.values() if r.outcome in ("wrong", "crash", "hang")]


def load(source, path=None):
    """The function `f` of module text `source` (written to a file of its own unless
    `path` already holds it)."""
    if path is None:
        path = f"{_workdir}/fuzz_{next(_module_ids)}.py"
        with open(path, "w") as out:
            out.write(source)
    spec = importlib.util.spec_from_file_location(f"fuzz_program_{next(_module_ids)}", path)
    module = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():  # edits while minimizing may make odd code: say nothing
        warnings.simplefilter("ignore", SyntaxWarning)
        spec.loader.exec_module(module)
    return module.f


def oracle(fn, inputs, seconds=1.0):
    try:
        with time_limit(seconds):
            return [normalize(fn(a, b, list(xs))) for a, b, xs in inputs]
    except (Exception, Hang) as e:
        raise OracleError(describe(e)) from e


def run(source, inputs, modes=MODES, seconds=3.0, path=None):
    """The oracle's answers and each mode's outcome; a mode hangs after `hang_limit` CPU
    seconds, `seconds` at least. Raises OracleError for an invalid program."""
    try:
        fn = load(source, path)
    except Exception as e:  # a SyntaxError, most likely: edits while minimizing may do that
        raise OracleError(describe(e)) from e
    start = time.process_time()
    expected = oracle(fn, inputs)
    limit = hang_limit(time.process_time() - start, seconds)
    return Report(expected, {mode: run_mode(mode, fn, source, inputs, expected, limit)
                             for mode in modes})


def modes_of(program):
    """The modes a generated program runs in: its values may be tensors, or not."""
    return ("python",) if program.python_only else MODES


def run_mode(mode, fn, source, inputs, expected, seconds=3.0):
    try:
        with time_limit(seconds):
            answers = _CALLERS[mode](fn, inputs)
    except Hang as e:
        return ModeResult(mode, "hang", str(e), "hang")
    except Exception as e:
        kind, documented = classify(e, source, staged=mode in STAGED_MODES)
        if documented:
            return ModeResult(mode, "rejected", describe(e), kind)
        return ModeResult(mode, "crash", describe(e),
                          f"false rejection ({kind})" if kind else type(e).__name__)
    for args, want, got in zip(inputs, expected, answers):
        if not same(want, got):
            return ModeResult(mode, "wrong", f"f{args!r}: Python {want!r}, {mode} {got!r}",
                              f"gave {_kind_of(got)}")
    return ModeResult(mode, "match")


def _kind_of(value):
    if isinstance(value, tuple):
        return "(" + ", ".join(_kind_of(item) for item in value) + ")"
    return type(value).__name__


def describe(error):
    lines = str(error).splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def error_key(detail):
    """`detail` without its numbers and quoted names: errors that differ only there match."""
    return re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|\b\w*\d\w*\b", "_", detail)


# --- the modes --------------------------------------------------------------------------

def _tensors(a, b, xs):
    return ag.constant(a), ag.constant(b), ag.constant(xs, dtype=ag.int32)


def _python(fn, inputs):
    converted = ag.to_graph(fn)
    with converted_path():  # the oracle runs `fn` as written: compare the converted code
        return [normalize(converted(a, b, list(xs))) for a, b, xs in inputs]


def _eager(fn, inputs):
    converted = ag.to_graph(fn)
    with converted_path():
        return [normalize(converted(*_tensors(*args))) for args in inputs]


def _graph(fn, inputs):
    with ag.Graph().as_default():
        a, b = ag.placeholder(ag.int32, shape=()), ag.placeholder(ag.int32, shape=())
        xs = ag.placeholder(ag.int32, shape=(None,))
        result = ag.to_graph(fn)(a, b, xs)
        leaves = _flatten(result)
        fetches = [leaf for leaf in leaves if isinstance(leaf, ag.Tensor)]
        answers = []
        with ag.Session() as sess:
            for x, y, items in inputs:
                values = iter(sess.run(fetches, {a: x, b: y, xs: np.asarray(items, np.int32)}))
                fetched = [next(values) if isinstance(leaf, ag.Tensor) else leaf
                           for leaf in leaves]
                answers.append(normalize(_pack(result, fetched)))
        return answers


def _function(fn, inputs):
    signature = [ag.TensorSpec(shape=(), dtype=ag.int32), ag.TensorSpec(shape=(), dtype=ag.int32),
                 ag.TensorSpec(shape=(None,), dtype=ag.int32)]
    traced = ag.function(fn, input_signature=signature)
    return [normalize(traced(*_tensors(*args))) for args in inputs]


_CALLERS = {"python": _python, "eager": _eager, "graph": _graph, "function": _function}


def _flatten(value):
    if isinstance(value, tuple):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _pack(structure, leaves):
    """`leaves` (as `_flatten(structure)` ordered them) in `structure`'s tuples."""
    leaves = iter(leaves)

    def rebuild(value):
        if isinstance(value, tuple):
            return tuple(rebuild(item) for item in value)
        return next(leaves)

    return rebuild(structure)


# --- comparing --------------------------------------------------------------------------


def normalize(value):
    """Tensors and numpy scalars as the Python values they hold; tuples kept."""
    if isinstance(value, tuple):
        return tuple(normalize(item) for item in value)
    if isinstance(value, ag.Tensor):
        value = value.numpy()
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.generic):
        return value.item()
    return value


def same(expected, actual):
    if isinstance(expected, tuple):
        return (isinstance(actual, tuple) and len(actual) == len(expected)
                and all(same(e, a) for e, a in zip(expected, actual)))
    return type(actual) is type(expected) and actual == expected
