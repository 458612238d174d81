"""Find the benchmark modules, describe the machine, and run every module once.

Contract: a benchmark is any module of this folder whose source defines a top-level
`measure()` (found by reading the source, without importing it), so a new module is
picked up by `run.py` and by `performance_doc.py` with no list to update; files whose
name starts with `_` are helpers. `run_modules(names, quick)` imports and calls each
`measure()` once, in turn, and returns what one run needs to be reported:
the rows (each tagged with its `benchmark`), the seconds each module took, and the
modules that raised, with the first line of their error (one broken benchmark must not
lose the others' numbers); each module runs in a fresh interpreter of its own, one after
the other (`run_modules` says why). `quick` passes few samples (`QUICK_ARGUMENTS`) to the
parameters a `measure()` declares: a check that the whole run works, not numbers to read.
`environment()` is the line every table of docs/performance.md is headed by.
"""

import ast
import datetime
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time
import traceback

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# measure() parameter -> value under --quick (each module's own default otherwise).
QUICK_ARGUMENTS = {"repeats": 3, "repeat": 1}


def defines_measure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return any(isinstance(node, ast.FunctionDef) and node.name == "measure"
               for node in tree.body)


def benchmark_names():
    """Every benchmark module of this folder, sorted (the order of a run)."""
    return sorted(p.stem for p in HERE.glob("*.py")
                  if not p.stem.startswith("_") and defines_measure(p))


def _version(*distributions):
    for name in distributions:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return "not installed"


def _git_commit():
    """The checkout's commit, `+ changes` when the work tree differs from it."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit} + changes" if dirty else commit


def environment():
    """What the numbers depend on: a dict, and `environment_line` to print it."""
    import numpy as np

    tensorflow = ("not installed" if importlib.util.find_spec("tensorflow") is None
                  else _version("tensorflow", "tensorflow-cpu"))
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "python": platform.python_version(), "numpy": np.__version__,
            "jax": _version("jax"), "tensorflow": tensorflow,
            "threadpoolctl": _version("threadpoolctl"), "cpus": os.cpu_count(),
            "machine": platform.machine(), "platform": platform.platform(),
            "commit": _git_commit(), "load_average": round(os.getloadavg()[0], 2)}


def environment_line(env):
    return (f"{env['date']}, commit {env['commit']}, Python {env['python']}, numpy "
            f"{env['numpy']}, JAX {env['jax']}, TensorFlow {env['tensorflow']}, "
            f"threadpoolctl {env['threadpoolctl']}, {env['cpus']} CPUs ({env['machine']}), "
            f"load average {env['load_average']} at the start")


def quick_arguments(measure):
    parameters = inspect.signature(measure).parameters
    return {name: value for name, value in QUICK_ARGUMENTS.items() if name in parameters}


def measure_module(name, quick=False):
    """The rows of one module's `measure()`, run in this process."""
    measure = importlib.import_module(name).measure
    return measure(**(quick_arguments(measure) if quick else {}))


def run_modules(names, quick=False, log=sys.stderr):
    """{"rows", "seconds", "failed"} of running each named module's `measure()` once,
    one module after the other, each in a fresh interpreter: what one module imports
    must not change another's numbers (once JAX is imported, for one, every converted
    call on Python values asks whether a JAX trace is active)."""
    rows, seconds, failed = [], {}, {}
    for name in names:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder, "rows.json")
            done = subprocess.run([sys.executable, __file__, name, str(out),
                                   *(["--quick"] if quick else [])], cwd=ROOT)
            result = (json.loads(out.read_text()) if out.exists() else
                      {"error": f"the process exited with status {done.returncode}"})
        if "error" in result:
            failed[name] = result["error"]
        else:
            rows += [{"benchmark": name, **r} for r in result["rows"]]
        seconds[name] = round(time.perf_counter() - start, 1)
        print(f"{name}: {seconds[name]:.0f} s{' (failed)' if name in failed else ''}",
              file=log, flush=True)
    return {"rows": rows, "seconds": seconds, "failed": failed}


def _child(argv):
    """`python _suite.py MODULE OUT.json [--quick]`: one module, its rows (or its error)
    written to OUT.json; the traceback goes to stderr."""
    name, out = argv[0], pathlib.Path(argv[1])
    try:
        result = {"rows": measure_module(name, quick="--quick" in argv[2:])}
    except Exception as error:  # reported; the run goes on with the other modules
        traceback.print_exc()
        first_line = (str(error).splitlines() or [""])[0]
        result = {"error": f"{type(error).__name__}: {first_line}".rstrip(": ")}
    out.write_text(json.dumps(result))


if __name__ == "__main__":
    _child(sys.argv[1:])
