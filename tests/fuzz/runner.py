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
            eager tensors;
- static:   `ag.function(f)` without a signature, called on eager tensors: traced for
            the length of xs, which is then known (`len(xs)` a Python int). Only for
            programs with a loop of vector_loops.py that walks xs itself
            (`Program.static`, `modes_of`), which the vectorization pass (below) takes
            only when the length of xs is known; and only on the input with the
            longest xs (one trace; the most iterations), if not empty: `xs[i]` in a
            staged loop's body then fails to trace (shape inference: "index 0 is out
            of bounds for axis 0 with size 0"), a bug of its own, not the pass's.
A program on values no tensor can be (strings, dicts...: `Program.python_only`) runs in
the python mode only (`modes_of`).

The staged modes compile their plans as the environment says: the plan compiler's
vectorization pass on, unless AUTOGRAPH_VECTORIZE is "0". Their vectorized loops run from
one iteration on (not only long ones, as by default), in chunks of one or two
iterations in function and static, so that the short inputs cross chunk boundaries
(`CHUNKS`). Where the pass vectorized a loop (its `# vectorized:` lines are in a plan's
code), the mode runs again with AUTOGRAPH_VECTORIZE=0 on the same traces, their plans
compiled anew (graph: a fresh Session on the same graph; function and static: fresh
concrete functions of the same traced graphs), and each answer is compared three ways:
Python, the pass on, the pass off. A wrong answer's kind says which of on and off gave
it (`vectorized`, `unvectorized`, or neither when both agree). An error (not a
rejection) that goes away with the pass off says so in its kind (`vectorized only`); a
loop the pass failed on (its internal error, which leaves the loop as it is) is a crash
of its own (`vectorizer failed`).

Each mode ends as one outcome: match, wrong (some input gave another answer), crash (an
error that is not a documented rejection), hang (no answer within the time limit: see
`hang_limit`), or
rejected (an error that rejections.py recognizes as documented; only the staged modes,
graph, function and static, may reject, since the others must be Python, except for the
rules of tensors themselves, eager ones too (`Rejection.eager`); a recognized error whose
premise is false is a crash, "false rejection"). Results compare exactly: ints
stay ints, bools stay bools, tuples stay tuples.
"""

import atexit
import contextlib
import dataclasses
import importlib.util
import itertools
import os
import re
import shutil
import signal
import tempfile
import time
import warnings

import numpy as np
from autograph_py.runtime.plan.passes.vectorize import INTERNAL_ERROR
from autograph_py.runtime.plan.vectorize import emit

import autograph_py as ag
from autograph_py.tracing.concrete_function import ConcreteFunction
from tests.converted_path import converted_path
from tests.fuzz.rejections import classify

MODES = ("python", "eager", "graph", "function")  # every program's; `static` is extra
STAGED_MODES = ("graph", "function", "static")
VECTORIZE = "AUTOGRAPH_VECTORIZE"  # "0": the plan compiler's vectorization pass is off
VECTORIZED = "# vectorized:"  # the first line of a vectorized loop in a plan's code
# How each staged mode's vectorized loops run (settings of runtime/plan/vectorize/emit.py,
# written into a plan's code as it is compiled): from one iteration on (by default a loop
# of fewer than MIN_TRIPS is left to itself: none here would run vectorized), graph in
# the default chunks, the others in chunks of one or two iterations (so that the short
# inputs cross chunk boundaries).
SMALL_CHUNKS = {"MIN_TRIPS": 1, "FIRST_CHUNK": 1, "GROWTH": 2, "MAX_CHUNK": 2}
CHUNKS = {"graph": {"MIN_TRIPS": 1}, "function": SMALL_CHUNKS, "static": SMALL_CHUNKS}
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
    vectorized: bool = False  # a plan of the mode vectorized a loop (runs compared off)

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
    """The modes a generated program runs in: its values may be tensors, or not; with
    a loop of vector_loops.py that walks xs itself, the length of xs known too."""
    if program.python_only:
        return ("python",)
    return MODES + ("static",) if program.static else MODES


def run_mode(mode, fn, source, inputs, expected, seconds=3.0):
    staged = mode in STAGED_MODES
    result = ModeResult(mode, "match")
    if mode == "static":  # the longest xs only, if not empty (above)
        inputs, expected = _longest(inputs, expected)
    try:
        with time_limit(seconds):
            if staged:
                answers, off, internal = _staged(mode, fn, source, inputs)
                result.vectorized = off is not None
            else:
                answers, off, internal = _CALLERS[mode](fn, inputs), None, []
    except Hang as e:
        return ModeResult(mode, "hang", str(e), "hang")
    except Exception as e:
        kind, documented = classify(e, source, staged=staged)
        if documented:
            return ModeResult(mode, "rejected", describe(e), kind)
        kind = f"false rejection ({kind})" if kind else type(e).__name__
        if getattr(e, "vectorized_only", False):
            kind += " (vectorized only)"
        return ModeResult(mode, "crash", describe(e), kind)
    for args, want, got, got_off in zip(inputs, expected, answers, off or answers):
        if not (same(want, got) and same(want, got_off)):
            result.outcome, result.kind = "wrong", f"gave {_kind_of(got)}"
            result.detail = f"f{args!r}: Python {want!r}, {mode} {got!r}"
            if not same(got, got_off):  # the pass on and off disagree: which is right?
                result.detail += f", {mode} without vectorization {got_off!r}"
                result.kind = (f"gave {_kind_of(got)} vectorized" if same(want, got_off) else
                               f"gave {_kind_of(got_off)} unvectorized" if same(want, got) else
                               f"gave {_kind_of(got)} vectorized, {_kind_of(got_off)} "
                               "unvectorized")
            return result
    if internal:
        result.outcome, result.kind, result.detail = "crash", "vectorizer failed", internal[0]
    return result


def _longest(inputs, expected):
    """([the input with the longest xs], [its answer]), or ([], []) if xs is empty."""
    if not inputs:
        return [], []
    k = max(range(len(inputs)), key=lambda k: len(inputs[k][2]))
    return ([inputs[k]], [expected[k]]) if len(inputs[k][2]) else ([], [])


def _staged(mode, fn, source, inputs):
    """(answers, answers with the vectorization pass off or None when it vectorized no
    loop, the pass's internal errors) of a staged mode. An error the pass off does not
    raise gets `vectorized_only` (not a documented rejection: those come from tracing)."""
    run = _CALLERS[mode](fn, inputs)
    try:
        with _emit_settings(CHUNKS[mode]):
            answers, plans = run()
    except Exception as e:
        if classify(e, source)[1] or os.environ.get(VECTORIZE) == "0":
            raise
        try:
            with _vectorize_off():
                run()
        except Exception:
            raise e from None
        e.vectorized_only = True
        raise e from None
    internal = [f"{reason} (the loop at {op.location})" for plan in plans
                for op, reason in plan.vectorized
                if reason and reason.startswith(INTERNAL_ERROR)]
    if not any(VECTORIZED in plan.code for plan in plans):
        return answers, None, internal  # the pass changed no plan: nothing to compare
    with _vectorize_off():
        off, _ = run()
    return answers, off, internal


@contextlib.contextmanager
def _vectorize_off():
    """The vectorization pass off in the plans compiled meanwhile."""
    saved = os.environ.get(VECTORIZE)
    os.environ[VECTORIZE] = "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ[VECTORIZE]
        else:
            os.environ[VECTORIZE] = saved


@contextlib.contextmanager
def _emit_settings(settings):
    """emit's module settings (name -> value) for the plans compiled meanwhile (a name it
    no longer has is an AttributeError: this module is to be updated)."""
    saved = {name: getattr(emit, name) for name in settings}
    for name, value in settings.items():
        setattr(emit, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(emit, name, value)


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


# The staged modes trace, then return `run()`: (answers, plans) from plans compiled anew
# (so as the environment says then: `_staged` runs it with the vectorization pass on and off).

def _graph(fn, inputs):
    with ag.Graph().as_default() as graph:
        a, b = ag.placeholder(ag.int32, shape=()), ag.placeholder(ag.int32, shape=())
        xs = ag.placeholder(ag.int32, shape=(None,))
        result = ag.to_graph(fn)(a, b, xs)
    leaves = _flatten(result)
    fetches = [leaf for leaf in leaves if isinstance(leaf, ag.Tensor)]

    def run():
        answers = []
        with ag.Session(graph) as sess:
            for x, y, items in inputs:
                values = iter(sess.run(fetches, {a: x, b: y, xs: np.asarray(items, np.int32)}))
                fetched = [next(values) if isinstance(leaf, ag.Tensor) else leaf
                           for leaf in leaves]
                answers.append(normalize(_pack(result, fetched)))
            plans = list(sess._plans.values())
        return answers, plans
    return run


SIGNATURE = [ag.TensorSpec(shape=(), dtype=ag.int32), ag.TensorSpec(shape=(), dtype=ag.int32),
             ag.TensorSpec(shape=(None,), dtype=ag.int32)]


def _function(fn, inputs, signature=SIGNATURE):
    traced, runs = ag.function(fn, input_signature=signature), itertools.count()

    def run():
        if next(runs) == 0:  # the first run traces
            answers = [normalize(traced(*_tensors(*args))) for args in inputs]
            return answers, [concrete._plan for concrete in traced.concrete_functions()]
        # later ones compile the traced graphs again, into concrete functions of their own
        again, answers = {}, []
        for args in inputs:
            tensors = _tensors(*args)
            traced_one = traced.get_concrete_function(*tensors)
            if traced_one not in again:
                again[traced_one] = ConcreteFunction(
                    traced_one.graph, traced_one.inputs, traced_one.outputs,
                    traced_one.structured_outputs, traced_one.input_specs,
                    traced_one.parameters)
            answers.append(normalize(again[traced_one](*tensors)))
        return answers, [concrete._plan for concrete in again.values()]
    return run


def _static(fn, inputs):
    return _function(fn, inputs, signature=None)


_CALLERS = {"python": _python, "eager": _eager, "graph": _graph, "function": _function,
            "static": _static}


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
