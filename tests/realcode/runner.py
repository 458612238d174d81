"""Runs one CPython test module against a copy of stdlib sources, in its own process.

    python tests/realcode/runner.py ROOT TEST_MODULE OUTFILE

ROOT holds the copied (or converted) sources: `name.py` files and `name/` packages. The
runner imports autograph_py and unittest first (so that they keep the real stdlib
modules they use), puts ROOT first on `sys.path`, drops every module ROOT provides (and
its submodules) from `sys.modules`, then imports the test module: it, and everything it
imports, gets the copies. The unconverted baseline and the converted run go through the
same steps, so the copy's own effects (paths, a fresh import) are in both.

OUTFILE receives JSON lines, written as they happen so that a run killed by the
harness's timeout still reports what finished:
- `{"shadow": {module: file}}` once the test module is imported: where each module of
  ROOT was loaded from (a module loaded from elsewhere means the copy was not tested);
- `{"id": test_id, "status": "pass"|"fail"|"error"|"skip"|"xfail"|"xpass", "error":
  first line of the first error message, "where": innermost file:line}` per test.
"""

import json
import os
import sys
import traceback
import unittest


def provided_modules(root):
    names = []
    for entry in sorted(os.listdir(root)):
        if entry.endswith(".py"):
            names.append(entry[:-3])
        elif os.path.isfile(os.path.join(root, entry, "__init__.py")):
            names.append(entry)
    return names


def shadow(root):
    """Makes ROOT's modules the ones the next imports get; returns their names."""
    names = provided_modules(root)
    sys.path.insert(0, root)
    for loaded in list(sys.modules):
        if loaded.split(".")[0] in names:
            del sys.modules[loaded]
    return names


def where_loaded(names):
    return {m: getattr(sys.modules[m], "__file__", None) for m in sorted(sys.modules)
            if m.split(".")[0] in names}


def main(root, test_name, outfile):
    sys.path[:] = [p for p in sys.path if os.path.abspath(p) != os.path.dirname(
        os.path.abspath(__file__))]
    import test.support  # noqa: F401

    import autograph_py  # noqa: F401  (converted code imports it: load it from here)
    import autograph_py.operators  # noqa: F401

    global _ROOT
    root = _ROOT = os.path.abspath(root)
    names = shadow(root)
    out = open(outfile, "w", buffering=1)
    try:
        suite = unittest.TestLoader().loadTestsFromName(test_name)
    except BaseException as e:  # the test module does not even import: one error
        _write(out, {"shadow": where_loaded(names)})
        _write(out, {"id": f"{test_name} (import)", "status": "error",
                     "error": _first_line(e), "where": _where(e.__traceback__)})
        return
    _write(out, {"shadow": where_loaded(names)})
    result = _StreamingResult(out)
    suite.run(result)


_SEEN = {}


def _write(out, record):
    if "id" in record:  # doctests of a package and of its __init__ share an id: number them
        _SEEN[record["id"]] = count = _SEEN.get(record["id"], 0) + 1
        if count > 1:
            record["id"] = f"{record['id']}#{count}"
    out.write(json.dumps(record) + "\n")


class _StreamingResult(unittest.TestResult):
    """A unittest result that writes each test's outcome (its worst one: a failing
    subtest fails the test) when the test stops."""

    RANK = ["pass", "xfail", "skip", "xpass", "fail", "error"]

    def __init__(self, out):
        super().__init__()
        self.out = out
        self.current = {}

    def startTest(self, test):
        super().startTest(test)
        self.current[test.id()] = {"status": "pass", "error": None, "where": None}

    def stopTest(self, test):
        super().stopTest(test)
        record = self.current.pop(test.id(), None)
        if record is not None:
            _write(self.out, {"id": test.id(), **record})

    def _set(self, test, status, err=None):
        started = test.id() in self.current
        record = self.current.setdefault(test.id(), {"status": "pass", "error": None,
                                                     "where": None})
        if self.RANK.index(status) >= self.RANK.index(record["status"]):
            record["status"] = status
            if err is not None and record["error"] is None:
                record["error"] = _first_line(err[1])
                record["where"] = _where(err[2])
        if not started:  # setUpClass/setUpModule errors: no startTest, no stopTest
            _write(self.out, {"id": test.id(), **self.current.pop(test.id())})

    def addError(self, test, err):
        self._set(test, "error", err)

    def addFailure(self, test, err):
        self._set(test, "fail", err)

    def addSkip(self, test, reason):
        self._set(test, "skip")

    def addExpectedFailure(self, test, err):
        self._set(test, "xfail")

    def addUnexpectedSuccess(self, test):
        self._set(test, "xpass")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failure = issubclass(err[0], test.failureException)
            self._set(test, "fail" if failure else "error", err)


def _first_line(error):
    """`Type: message`, its first line (a failed assertEqual's diff follows it)."""
    lines = "".join(traceback.format_exception_only(type(error), error)).splitlines()
    heading = [line for line in lines if line.startswith(type(error).__qualname__)
               or line.startswith(f"{type(error).__module__}.")]
    return (heading or lines or [type(error).__name__])[0][:300]


def _where(tb):
    """The innermost frame in the copied modules (the line of the module that failed),
    else the innermost frame."""
    frames = traceback.extract_tb(tb) if tb is not None else []
    ours = [f for f in frames if _ROOT and f.filename.startswith(_ROOT)] or frames
    return f"{ours[-1].filename}:{ours[-1].lineno}" if ours else None


_ROOT = None


if __name__ == "__main__":
    main(*sys.argv[1:4])
