"""Regression case files: one minimized failing program per file in tests/fuzz/cases/.

A case file is the program's module source under a header of `# key: value` comment
lines: seed, index, mode, outcome, error (as found), inputs (a Python literal list of
`(a, b, xs)`), optionally modes (comma-separated: the modes it runs in; all by
default), and, while the bug is not fixed, `xfail: <reason>` (test_cases.py turns
it into a strict xfail; whoever fixes the bug removes that line). The file is loaded as
it is, so `ag.to_graph` reads the program's source from it.
"""

import ast
import dataclasses
import pathlib
import re

from tests.fuzz.runner import MODES

CASES_DIR = pathlib.Path(__file__).parent / "cases"


@dataclasses.dataclass
class Case:
    path: pathlib.Path
    header: dict
    source: str

    @property
    def inputs(self):
        return ast.literal_eval(self.header["inputs"])

    @property
    def modes(self):
        """The modes the case runs in (a `modes:` line: comma-separated; else all)."""
        listed = self.header.get("modes")
        return tuple(mode.strip() for mode in listed.split(",")) if listed else MODES

    @property
    def xfail(self):
        return self.header.get("xfail")


def read(path):
    path = pathlib.Path(path)
    source = path.read_text()
    header = {}
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].strip().partition(": ")
        if sep:
            header[key] = value
    return Case(path, header, source)


def all_cases():
    return [read(path) for path in sorted(CASES_DIR.glob("*.py"))]


def write(source, inputs, seed, index, result, directory=CASES_DIR, modes=None):
    """Write the case for `result` (a runner.ModeResult) and return its path."""
    directory = pathlib.Path(directory)
    directory.mkdir(exist_ok=True)
    slug = re.sub(r"\W+", "_", result.kind).strip("_").lower()
    path = directory / f"{result.outcome}_{result.mode}_{slug}_s{seed}_i{index}.py"
    header = [
        "# ruff: noqa",
        "# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.",
        f"# seed: {seed}",
        f"# index: {index}",
        f"# mode: {result.mode}",
        f"# outcome: {result.outcome}",
        f"# error: {result.detail}",
        f"# inputs: {list(inputs)!r}",
        *([f"# modes: {', '.join(modes)}"] if modes else []),
        f"# xfail: not fixed yet ({result.outcome} in {result.mode} mode)",
    ]
    path.write_text("\n".join(header) + "\n" + source)
    return path
