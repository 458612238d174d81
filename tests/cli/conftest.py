"""Fixtures of the command-line tests: the installed `autograph` command run as a
subprocess, the fixture files, and importing a file (original or converted) by path."""

import ast
import importlib.util
import itertools
import pathlib
import shutil
import subprocess
import sys

import pytest

from autograph_py import config

FIXTURES = pathlib.Path(__file__).parent / "fixtures"

# The console script pyproject.toml installs; the module form only when it is missing.
_COMMAND = ([shutil.which("autograph")] if shutil.which("autograph")
            else [sys.executable, "-m", "autograph_py.cli"])
_module_names = (f"autograph_cli_test_module_{i}" for i in itertools.count())


def run_autograph(*args, stdin=None, cwd=None, env=None, binary=False, launcher=()):
    """The finished `autograph` process, started through `launcher` (a command prefix)
    when given; its output as str, or bytes when `binary`."""
    text = {} if binary else {"text": True, "encoding": "utf-8"}
    return subprocess.run([*launcher, *_COMMAND, *map(str, args)], input=stdin,
                          capture_output=True, cwd=cwd, env=env, timeout=120, **text)


def import_path(path):
    """Import the file at `path` as a fresh module (never cached under a shared name)."""
    spec = importlib.util.spec_from_file_location(next(_module_names), path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # inspect.getsource (converted_call) looks it up
    spec.loader.exec_module(module)
    return module


def convert_and_import(fixture, directory, as_written=False):
    """(original module, converted module) of a fixture, converted by the command. With
    `as_written`, the converted module is imported with the fast path on, so it keeps
    its functions as written beside their conversions (imported with the fast path off,
    AUTOGRAPH_FAST_PATH=0, it binds the conversions: autograph_py/fast_path.py)."""
    result = run_autograph("convert", FIXTURES / fixture)
    assert result.returncode == 0, result.stderr
    converted = pathlib.Path(directory) / f"converted_{fixture}"
    converted.write_text(result.stdout, encoding="utf-8")
    previous = config.set_fast_path(True) if as_written else config.fast_path_enabled()
    try:
        return import_path(FIXTURES / fixture), import_path(converted)
    finally:
        config.set_fast_path(previous)


def force_converted_path(monkeypatch):
    """Calls on Python values run the converted code, not the function as written (the
    fast path, switched off by AUTOGRAPH_FAST_PATH=0, which `config` reads at import)."""
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")
    monkeypatch.setattr(config, "_fast_path", False, raising=False)


@pytest.fixture
def run_cli():
    return run_autograph


@pytest.fixture
def fixtures():
    return FIXTURES


@pytest.fixture(scope="module")
def seed_modules(tmp_path_factory):
    return convert_and_import("seed_functions.py", tmp_path_factory.mktemp("seed"))


@pytest.fixture(scope="module")
def nested_modules(tmp_path_factory):
    return convert_and_import("classes_nested.py", tmp_path_factory.mktemp("nested"))


@pytest.fixture
def import_file():
    return import_path


@pytest.fixture(scope="module")
def decorated_modules(tmp_path_factory):
    return convert_and_import("decorated.py", tmp_path_factory.mktemp("decorated"),
                              as_written=True)


def conversions_only(text):
    """The output `text` without the functions as written that the fast path runs: each
    function's conversion, under the user's decorators and the function's name, in the
    function's place (the output of `autograph convert` before the fast path; tests of
    its text read this)."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    replace = {}  # line number -> its new text ("" drops it)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for twin, as_written in zip(body, body[1:]):
            if not isinstance(twin, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            marks = [d for d in getattr(as_written, "decorator_list", [])
                     if ast.unparse(d) in (f"__ag__.converted_twin({twin.name})",
                                           "__ag__.converted_twin()")]
            if not marks:
                continue
            decorators = "".join(lines[first_decorator_line(as_written) - 1:marks[0].lineno - 1])
            # The conversion's own decorator (`@__ag__.twin_below(name)`) goes.
            for number in range(first_decorator_line(twin), twin.lineno):
                replace[number] = ""
            replace[twin.lineno] = decorators + lines[twin.lineno - 1]
            for number in range(twin.end_lineno + 1, as_written.end_lineno + 1):
                replace[number] = ""
    return "".join(replace.get(number, line) for number, line in enumerate(lines, 1))


def first_decorator_line(node):
    return min([node.lineno] + [d.lineno for d in node.decorator_list])
