"""The fuzzer's part for the vectorization pass: the generator's loops over the items of
`xs` (vector_loops.py) and the runner's comparison of each staged mode's answers with
the pass on and off (runner.py).

The comparison is checked against faults planted in the pass's helpers (the generated
code calls them through `lanes.GLOBALS`, looked up when a plan is compiled) and in the
pass itself: each must show up as the failure the runner promises.
"""

import ast
import os
import re

import pytest
from autograph_py.runtime.plan.passes import vectorize
from autograph_py.runtime.plan.vectorize import emit, lanes

from tests.fuzz import runner, vector_loops
from tests.fuzz.generator import generate
from tests.fuzz.rules import bound_before_use

INT32 = range(-2**31, 2**31)
HEADERS = {  # vector_loops.HEADERS -> the loop's header, as generated
    "items": r"for x\d+ in xs:",
    "enumerate": r"for i\d+, x\d+ in enumerate\(xs\):",
    "zip": r"for x\d+, y\d+ in zip\(xs, xs(\[1:\])?\):",
    "range": r"for i\d+ in range\(len\(xs\)\):",
    "range_from": r"for i\d+ in range\(1, len\(xs\)\):",
    "range_back": r"for i\d+ in range\(len\(xs\) - 1, -1, -1\):",
    "range_step": r"for i\d+ in range\(0, len\(xs\), 2\):",
}


def _whiles(source):
    """The forms of the whiles of vector_loops.py in `source`: where they count."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.While) and re.fullmatch(
                r"w\d+ < (len\(xs\)|n\d+)", ast.unparse(node.test)):
            counter = f"{node.test.left.id} += 1"
            found |= {form for form, statement in (("while_first", node.body[0]),
                                                   ("while_last", node.body[-1]))
                      if ast.unparse(statement) == counter}
    return found


def _vector_programs(seed, count):
    programs = (generate(seed, index) for index in range(10_000))
    return [p for p, _ in zip((p for p in programs if p.vector_loops), range(count))]


def test_some_programs_have_vector_loops_of_every_form():
    programs = [generate(0, index) for index in range(600)]
    tensor = [p for p in programs if not p.python_only]
    with_loops = [p for p in tensor if p.vector_loops]
    assert 0.1 < len(with_loops) / len(tensor) < 0.35  # a modest share: the rest stays
    assert not any(p.vector_loops for p in programs if p.python_only)
    sources = "\n".join(p.source for p in with_loops)
    whiles = set().union(*(_whiles(p.source) for p in with_loops))
    for form in vector_loops.HEADERS:
        assert form in whiles if form.startswith("while") else re.search(
            HEADERS[form], sources), form
    for update in (r"v\d \*= ", r"v\d = max\(", r"v\d = min\(", r"v\d \+= 1\n",
                   r"\.append\(", r"v\d = len\(l\d+\)", r"\n +break\n", r"\n +continue\n",
                   r"\n +return ", r"if v\d > \d:\n +v\d = -?\d\n"):
        assert re.search(update, sources), update
    # Program.static: a loop walking xs itself, which vectorizes only at a known length
    assert any(p.static for p in with_loops) and not all(p.static for p in with_loops)
    for p in with_loops:
        walks = any(re.search(HEADERS[form], p.source) for form in ("items", "enumerate", "zip"))
        assert p.static <= walks  # (the generator's own loops walk xs too)
        assert ("static" in runner.modes_of(p)) == p.static


def test_programs_with_vector_loops_keep_the_generators_rules():
    for program in _vector_programs(0, 60):
        source = program.source
        f = next(node for node in ast.parse(source).body if getattr(node, "name", "") == "f")
        statements = sum(isinstance(node, ast.stmt) for node in ast.walk(f)) - 1
        assert 5 <= statements <= 60, source
        assert bound_before_use(source), source
        for answer in runner.oracle(runner.load(source), program.inputs):
            values = answer if isinstance(answer, tuple) else (answer,)
            assert all(type(v) is int and v in INT32 for v in values), (source, answer)


def test_the_staged_modes_vectorize_the_generated_loops():
    """The fuzzer exercises the pass: in each staged mode, some of the generated loops run
    as array operations (and give the answers they give with the pass off)."""
    vectorized = {mode: 0 for mode in runner.STAGED_MODES}
    for program in _vector_programs(0, 20):
        report = runner.run(program.source, program.inputs, runner.modes_of(program))
        assert not report.failures(), (program.source, report.failures())
        for mode in runner.STAGED_MODES:
            vectorized[mode] += mode in report.modes and report.modes[mode].vectorized
    assert all(n >= 3 for n in vectorized.values()), vectorized


SUM = """\
def f(a, b, xs):
    s = 0
    for i in range(len(xs)):
        if xs[i] > a:
            s += xs[i]
    return s
"""
INPUTS = [(0, 0, [1, 2, 3]), (1, 0, [4, -1, 2, 5])]


def _run(mode, source=SUM, inputs=INPUTS):
    fn = runner.load(source)
    return runner.run_mode(mode, fn, source, inputs, runner.oracle(fn, inputs))


@pytest.mark.parametrize("mode", ["graph", "function"])
def test_a_loop_vectorized_in_a_staged_mode_gives_the_answers_it_gives_unvectorized(mode):
    saved = os.environ.get(runner.VECTORIZE), emit.FIRST_CHUNK, emit.MIN_TRIPS
    result = _run(mode)
    assert (result.outcome, result.vectorized) == ("match", True)
    # the environment and emit's settings are as they were
    assert (os.environ.get(runner.VECTORIZE), emit.FIRST_CHUNK, emit.MIN_TRIPS) == saved


def test_with_the_pass_off_in_the_environment_nothing_is_compared(monkeypatch):
    monkeypatch.setenv(runner.VECTORIZE, "0")
    result = _run("function")
    assert (result.outcome, result.vectorized) == ("match", False)


def _wrong_fold(monkeypatch):
    fold = lanes.GLOBALS["fold"]
    monkeypatch.setitem(lanes.GLOBALS, "fold", lambda *args: fold(*args) + 1)


@pytest.mark.parametrize("mode", ["graph", "function"])
def test_a_wrong_vectorized_answer_is_a_wrong_answer_of_the_vectorized_mode(monkeypatch, mode):
    _wrong_fold(monkeypatch)
    result = _run(mode)
    assert (result.outcome, result.kind) == ("wrong", "gave int vectorized")
    # (one more per chunk: function runs chunks of one or two iterations)
    assert re.fullmatch(rf"f\(0, 0, \[1, 2, 3\]\): Python 6, {mode} (7|8), {mode} without "
                        "vectorization 6", result.detail)


def test_a_wrong_vectorized_answer_in_the_static_mode(monkeypatch):
    _wrong_fold(monkeypatch)
    source = SUM.replace("for i in range(len(xs)):", "for x in xs:").replace("xs[i]", "x")
    result = _run("static", source)
    assert (result.outcome, result.kind) == ("wrong", "gave int vectorized")


def test_an_error_only_the_vectorized_loop_raises_is_a_crash_that_says_so(monkeypatch):
    def reraise(error):
        raise error
    monkeypatch.setitem(lanes.GLOBALS, "vector_fallback", reraise)
    monkeypatch.setitem(lanes.GLOBALS, "fold", lambda *args: 1 // 0)
    result = _run("function")
    assert (result.outcome, result.kind) == ("crash", "OpError (vectorized only)")
    assert "ZeroDivisionError" in result.detail


def test_an_internal_error_of_the_pass_is_a_crash(monkeypatch):
    def fails(*args):
        raise RuntimeError("planted")
    monkeypatch.setattr(vectorize, "emit", fails)
    result = _run("graph")
    assert (result.outcome, result.kind) == ("crash", "vectorizer failed")
    assert result.detail.startswith(f"{vectorize.INTERNAL_ERROR}: RuntimeError('planted')")


def test_the_static_mode_leaves_out_an_empty_xs():
    source = SUM.replace("for i in range(len(xs)):", "for i, x in enumerate(xs):")
    assert _run("static", source, [(0, 0, []), (0, 0, [2])]).outcome == "match"
