"""The real-code harness: stdlib modules converted by `autograph convert`, checked by
CPython's own test modules against an unconverted copy.

For each `Module` (modules.py):
1. its sources are copied from the stdlib into `WORK/base/NAME/` (the baseline) and
   converted file by file (`convert_worker.py`, the CLI's entry point) into
   `WORK/conv/NAME/`, the same layout. A converted file that does not compile is
   `invalid`.
2. its test module runs (`runner.py`, a subprocess with a timeout) once on the baseline
   and once on the converted copy per fast-path setting: `on` is the default
   environment, `off` sets AUTOGRAPH_FAST_PATH=0. The baseline is unconverted code, so
   the setting cannot change it: it runs once.
3. a test is *newly failing* when it passes (or fails as expected) on the baseline and
   does not converted: a failure, an error, a skip, or no outcome at all (the converted
   run timed out or crashed, or the test module did not import); unless it is one of
   `modules.EXPECTED` (a failure conversion cannot remove, with its reason), which is
   counted apart, and reported when it passes.

Never the real stdlib as the baseline: the copy has the same path and import effects
as the converted one, so only conversion differs.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from dataclasses import dataclass, field

from tests.realcode.modules import EXPECTED

HERE = os.path.dirname(os.path.abspath(__file__))
STDLIB = sysconfig.get_paths()["stdlib"]
PASSING = {"pass", "xfail"}
SETTINGS = {"on": {}, "off": {"AUTOGRAPH_FAST_PATH": "0"}}


@dataclass
class Run:
    """One run of a test module: outcomes by test id, and what went wrong as a whole."""
    outcomes: dict = field(default_factory=dict)
    shadow: dict = field(default_factory=dict)
    problem: str = None          # "timeout after Ns", "exit status N", "not shadowed: ..."
    seconds: float = 0.0


@dataclass
class Result:
    module: object
    conversion: dict = field(default_factory=dict)   # source file -> convert_worker record
    base: Run = None
    converted: dict = field(default_factory=dict)     # setting -> Run
    seconds: float = 0.0

    @property
    def invalid(self):
        return {path: r["invalid"] for path, r in self.conversion.items() if r["invalid"]}

    @property
    def unconverted(self):
        """Files `autograph convert` reported problems for (status 1: something left as
        written, and why), with its messages; notes alone (status 0) are not problems."""
        return {path: [m for m in r["messages"].splitlines() if "note:" not in m]
                for path, r in self.conversion.items() if r["status"] != 0}

    @property
    def baseline_passing(self):
        return {t for t, o in self.base.outcomes.items() if o["status"] in PASSING}

    def _failing(self, setting):
        run = self.converted[setting]
        return {t: run.outcomes.get(t, {"status": "missing", "error": run.problem,
                                        "where": None})
                for t in sorted(self.baseline_passing)
                if run.outcomes.get(t, {}).get("status") not in PASSING}

    def newly_failing(self, setting):
        """The tests that pass on the copy and fail converted, but those `EXPECTED`."""
        return {t: o for t, o in self._failing(setting).items()
                if not _expected(t, setting)}

    def expected_failing(self, setting):
        return {t: o for t, o in self._failing(setting).items() if _expected(t, setting)}

    def unexpectedly_passing(self, setting):
        """`EXPECTED` failures of this module that pass: the expectation is out of date."""
        failing = self._failing(setting)
        return sorted(t for t in self.baseline_passing
                      if _expected(t, setting) and t not in failing)

    def all_newly_failing(self):
        return set().union(*(self.newly_failing(s) for s in self.converted))

    def all_expected_failing(self):
        return set().union(*(self.expected_failing(s) for s in self.converted))

    def all_unexpectedly_passing(self):
        return set().union(*(self.unexpectedly_passing(s) for s in self.converted))


def _expected(test, setting):
    return EXPECTED.get(test, (None,))[0] == setting


class Converter:
    """Converts each stdlib source once (modules may share a package), into WORK/sources."""

    def __init__(self, work, timeout):
        self.root = os.path.join(work, "sources")
        self.timeout = timeout
        self.locks = {}
        self.done = {}
        self.guard = threading.Lock()

    def convert(self, source):
        """The converted tree of `source` (a stdlib file or package) and its records."""
        with self.guard:
            lock = self.locks.setdefault(source, threading.Lock())
        with lock:
            if source not in self.done:
                self.done[source] = self._convert(source)
            return self.done[source]

    def _convert(self, source):
        origin = _stdlib_path(source)
        target = os.path.join(self.root, os.path.basename(origin))
        os.makedirs(self.root, exist_ok=True)
        _copy(origin, target)
        files = [origin] if origin.endswith(".py") else _python_files(origin)
        pairs = [(f, target if f == origin else os.path.join(target, os.path.relpath(f, origin)))
                 for f in files]
        for _, destination in pairs:
            os.remove(destination)   # rewritten by the worker, or copied back if it fails
        try:
            done = subprocess.run([sys.executable, os.path.join(HERE, "convert_worker.py")],
                                  input=json.dumps(pairs), capture_output=True, text=True,
                                  timeout=self.timeout)
            records = json.loads(done.stdout) if done.returncode == 0 else None
            failure = f"convert_worker exit status {done.returncode}: {done.stderr[-500:]}"
        except subprocess.TimeoutExpired:
            records, failure = None, f"conversion timed out after {self.timeout}s"
        if records is None:   # every file counts as not written and invalid
            records = {}
            for source_file, destination in pairs:
                if not os.path.exists(destination):
                    shutil.copyfile(source_file, destination)
                records[source_file] = {"status": None, "written": False,
                                        "messages": failure, "invalid": failure}
        return target, {os.path.relpath(k, STDLIB): v for k, v in records.items()}


def _stdlib_path(source):
    base = os.path.join(STDLIB, *source.split("."))
    return base if os.path.isdir(base) else base + ".py"


def _python_files(folder):
    return sorted(os.path.join(d, f) for d, dirs, files in os.walk(folder)
                  for f in files if f.endswith(".py") and "__pycache__" not in d)


def _copy(origin, target):
    if os.path.isdir(origin):
        shutil.copytree(origin, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        shutil.copyfile(origin, target)


def build_tree(root, parts):
    """A sys.path entry holding `parts` (files or package folders), freshly copied."""
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for part in parts:
        _copy(part, os.path.join(root, os.path.basename(part)))
    return root


def run_tests(root, test, timeout, env, cwd):
    """Runs `test` against the modules of `root`; a `Run`."""
    os.makedirs(cwd, exist_ok=True)
    outfile = os.path.join(cwd, "outcomes.jsonl")
    log = open(os.path.join(cwd, "output.log"), "w")
    full_env = {k: v for k, v in os.environ.items() if k != "AUTOGRAPH_FAST_PATH"}
    full_env.update(env)
    run = Run()
    start = time.monotonic()
    process = subprocess.Popen([sys.executable, os.path.join(HERE, "runner.py"), root, test,
                                outfile], stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, cwd=cwd, env=full_env,
                               start_new_session=True)
    try:
        status = process.wait(timeout)
        if status != 0:
            run.problem = f"exit status {status}"
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)   # the runner and anything a test started
        process.wait()
        run.problem = f"timeout after {timeout}s"
    log.close()
    run.seconds = time.monotonic() - start
    if os.path.exists(outfile):
        with open(outfile) as f:
            for line in f:
                try:
                    record = json.loads(line)
                except ValueError:   # the last line of a killed run
                    continue
                if "shadow" in record:
                    run.shadow = record["shadow"]
                else:
                    run.outcomes[record["id"]] = record
    elsewhere = sorted(m for m, path in run.shadow.items()
                       if path is not None and not path.startswith(root))
    if elsewhere:
        run.problem = f"not shadowed: {', '.join(elsewhere)}"
    return run


def check_module(module, work, converter, settings, timeout=None):
    """Converts `module`, runs its tests on both copies; a `Result`."""
    start = time.monotonic()
    result = Result(module)
    converted_parts = []
    for source in module.paths:
        part, records = converter.convert(source)
        converted_parts.append(part)
        result.conversion.update(records)
    timeout = timeout or module.timeout
    base_root = build_tree(os.path.join(work, "base", module.name),
                           [_stdlib_path(s) for s in module.paths])
    conv_root = build_tree(os.path.join(work, "conv", module.name), converted_parts)
    result.base = run_tests(base_root, module.test, timeout, {},
                            os.path.join(work, "run", module.name, "base"))
    for setting in settings:
        result.converted[setting] = run_tests(
            conv_root, module.test, timeout, SETTINGS[setting],
            os.path.join(work, "run", module.name, setting))
    result.seconds = time.monotonic() - start
    return result
