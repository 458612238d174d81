"""The differential fuzzer (tests/fuzz/): its generator, minimizer and rejection table,
and the CI budget: a fixed set of programs must give Python's answers in every mode."""

import ast
import pathlib
import re

import pytest
from autograph_py.runtime.operators.unrolling import UNROLL_WARNING_THRESHOLD, UnrolledLoopWarning

import autograph_py as ag
from tests.fuzz import minimizer, realcode, runner
from tests.fuzz.__main__ import main
from tests.fuzz.campaign import run_campaign
from tests.fuzz.generator import REAL_CODE_EVERY, generate
from tests.fuzz.rejections import REJECTIONS, classify
from tests.fuzz.rules import bound_before_use
from tests.trace_time import expect_trace_time

LIMITATIONS = pathlib.Path(__file__).parents[1] / "docs" / "limitations.md"
INT32 = range(-2**31, 2**31)


def test_generator_is_deterministic_per_seed_and_index():
    assert generate(7, 3) == generate(7, 3)
    assert generate(7, 3).source != generate(7, 4).source
    # (seed, index) draws from Random(seed + index): the program is named by that sum.
    assert generate(7, 3).source == generate(8, 2).source


def _ints(value, arity):
    values = value if arity > 1 else (value,)
    return (len(values) == arity and all(type(v) is int and v in INT32 for v in values))


@pytest.mark.parametrize("seed", [0, 10_000])
def test_generated_programs_are_valid_python_the_oracle_runs(seed):
    for index in range(100):
        program = generate(seed, index)
        tree = ast.parse(program.source)
        f = next(node for node in tree.body if getattr(node, "name", None) == "f")
        returns = [node for node in ast.walk(f) if isinstance(node, ast.Return)
                   and not _inside_helper(f, node)]
        arity = {len(r.value.elts) if isinstance(r.value, ast.Tuple) else 1 for r in returns}
        assert len(arity) == 1, program.source
        assert bound_before_use(program.source), program.source
        statements = sum(isinstance(node, ast.stmt) for node in ast.walk(f)) - 1
        assert 5 <= statements <= 60, program.source  # small: each runs in milliseconds
        expected = runner.oracle(runner.load(program.source), program.inputs)
        if program.python_only:  # real code returns its strings, dicts ... after the ints
            assert all(isinstance(value, tuple) and len(value) in arity
                       for value in expected), (program.source, expected)
        else:
            assert all(_ints(value, *arity) for value in expected), (program.source, expected)


def _inside_helper(f, node):
    return any(node in ast.walk(inner) for inner in ast.walk(f)
               if inner is not f and isinstance(inner, (ast.FunctionDef, ast.Lambda)))


@pytest.mark.parametrize("body, legitimate", [
    ("v = 0\n    for x in xs:\n        v += x\n    return v", True),
    ("for x in xs:\n        w = 0\n        while (w := w + 1) < 3:\n            pass\n"
     "    return 0", True),
    ("for x in xs:\n        while (w := w):\n            pass\n    return 0", False),
    ("if a:\n        v = 1\n    return v", False),
    ("for x in xs:\n        pass\n    return x", False),
    ("if 0:\n        return w\n    return 0", False),
    ("return len(xs)", True),
    ("if (v := a) and b:\n        pass\n    return v", True),
    ("if a and (v := b):\n        pass\n    return v", False),
    ("v = 1\n    def h(p):\n        nonlocal v\n        v = p\n    h(2)\n    return v", True),
    ("global G\n    G = G + 1\n    return G", True),  # a global is bound at module level
    ("with a as c:\n        v = c\n        w = v\n    return c", True),
    ("with a:\n        v = 1\n    return v", False),  # the manager may swallow an exception
    ("return sum([z - c for c in xs if (z := c) > 1])", True),
    ("return sum([z for c in xs])", False),
])
def test_bound_before_use_rejects_reads_a_staged_path_could_reach_unbound(body, legitimate):
    assert bound_before_use(f"def f(a, b, xs):\n    {body}\n") is legitimate


SYNTHETIC = '''\
def f(a, b, xs):
    total = 0
    extra = 5
    for x in xs:
        if x > 1:
            total += x
        else:
            extra -= 1
    while extra > 10:
        extra -= 1
    if a > 0:
        total = total + 2 * a
    return total
'''


def test_minimizer_reaches_a_local_minimum_of_a_synthetic_failure():
    # The synthetic "failure": f(3, 0, [2]) returns 8 and the program still has a loop.
    def still_fails(source, inputs):
        try:
            return "for " in source and runner.oracle(runner.load(source), inputs) == [8]
        except runner.OracleError:
            return False

    assert still_fails(SYNTHETIC, [(3, 0, [2])])
    source, inputs = minimizer.minimize(SYNTHETIC, [(3, 0, [2])], still_fails)
    assert still_fails(source, inputs)
    assert len(source.splitlines()) < len(SYNTHETIC.splitlines())
    tree = ast.parse(source)
    for edit in minimizer._edits(tree):  # 1-minimal: no single edit keeps the failure
        candidate = ast.parse(source)
        edit(candidate)
        assert not still_fails(ast.unparse(candidate), inputs)


def test_every_rejection_kind_names_a_passage_of_limitations_md():
    text = LIMITATIONS.read_text()
    for row in REJECTIONS:
        assert row.section in text, (row.kind, row.section)
    assert len({row.kind for row in REJECTIONS}) == len(REJECTIONS)


def test_a_rule_about_the_program_is_a_rejection_only_when_the_program_breaks_it():
    error = ValueError("'y' is defined in only one branch of the `if` and used after it")
    reads_unbound = "def f(a, b, xs):\n    if a:\n        y = 1\n    return y\n"
    bound = "def f(a, b, xs):\n    if a:\n        y = 1\n    return a\n"
    assert classify(error, reads_unbound) == ("one-branch", True)
    assert classify(error, bound) == ("one-branch", False)
    assert classify(KeyError("k"), bound) == (None, False)


def test_eager_modes_reject_only_by_the_rules_of_tensors():
    # Found by fuzz seed 61001260: a Python sum that doubled past int32 met an int32 tensor.
    with pytest.raises(TypeError) as info:
        ag.constant(1) + 2 ** 33
    assert classify(info.value, "", staged=False) == ("python-int-out-of-range", True)
    error = ValueError("'y' is defined in only one branch of the `if` and used after it")
    assert classify(error, "", staged=False) == (None, False)


HANGS = """\
def f(a, b, xs):
    n = 0
    while n >= 0:
        n += 1
    return n
"""


@pytest.mark.parametrize("mode", runner.MODES)
def test_a_program_that_runs_past_the_time_limit_is_a_hang(mode):
    # Staged, the endless Python loop is unrolled into the graph, which the runtime says.
    unrolled = (rf"^a Python loop ran {UNROLL_WARNING_THRESHOLD} iterations while the graph "
                r"was being traced, at \S+:3: each iteration is copied into the graph")
    expected = [unrolled] if mode in runner.STAGED_MODES else []
    with expect_trace_time(*expected, category=UnrolledLoopWarning):
        result = runner.run_mode(mode, runner.load(HANGS), HANGS, [(0, 0, [])], [0],
                                 seconds=0.3)
    assert (result.outcome, result.kind) == ("hang", "hang")


def test_results_compare_exactly():
    assert runner.same((1, 2), (1, 2))
    assert not runner.same(1, True)
    assert not runner.same((1, 2), [1, 2])
    assert not runner.same(1, 1.0)


def test_command_line_prints_the_summary_line_last(capsys):
    assert main(["--count", "3", "--seed", "1", "--no-minimize"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert re.fullmatch(r"FUZZ \d+/3 wrong=\d+ crash=\d+ hang=\d+ rejected=\d+", last)


def test_fixed_budget_has_no_wrong_answer_crash_or_hang():
    lines = []
    for seed in (0, 50_000):
        summary = run_campaign(seed, 150, minimize=False, out=lines.append)
        counts = summary.counts
        assert counts["wrong"] == counts["crash"] == counts["hang"] == 0, "\n".join(lines)


def _rebinds_a_loop_target(source):
    """A `for` target assigned in its own body, or the target of a nested `for`."""
    f = next(node for node in ast.parse(source).body if getattr(node, "name", None) == "f")
    for loop in (node for node in ast.walk(f) if isinstance(node, ast.For)):
        targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        for statement in loop.body:
            stored = {n.id for n in ast.walk(statement)
                      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            if targets & stored:
                return True
    return False


# KNOWN_BUGS name -> whether a real-code program (source, python_only) has the construct.
KNOWN_BUG_CONSTRUCTS = {
    "loop_target_rebind": lambda source, _: _rebinds_a_loop_target(source),
    "zero_arg_super": lambda source, _: "super()" in source,
    "dict_pop_default": lambda source, _: re.search(r"dd\.pop\('\w', ", source),
    "annotated_in_body": lambda source, _: re.search(
        r"\n    (if |for |while |try:|with ).*\n(.*\n)* +v\d: int = ",
        source.split("\ndef f(")[1]),
    "walrus_in_lazy_comprehension": lambda source, _: re.search(
        r"(and|or) \(z\d+ :=", source),
    "warnings_stacklevel": lambda source, _: "catch_warnings" in source,
    "suppressed_with_assigns": lambda source, _: re.search(
        r"with contextlib.suppress\(ValueError\):\n +v\d \+= risky", source),
    "walrus_in_comprehension_staged": lambda source, python_only: not python_only and (
        re.search(r"if \(z\d+ :=", source)),
}


def test_fixed_constructs_are_generated_and_known_bugs_only_when_enabled(monkeypatch):
    # Names leave KNOWN_BUGS as their fixes land; their constructs are then always made.
    assert set(realcode.KNOWN_BUGS) <= set(KNOWN_BUG_CONSTRUCTS)

    def found(setting):
        monkeypatch.setenv("AUTOGRAPH_FUZZ_KNOWN_BUGS", setting)
        programs = [generate(0, index) for index in range(0, 1500, REAL_CODE_EVERY)]
        return {name for name in KNOWN_BUG_CONSTRUCTS
                if any(KNOWN_BUG_CONSTRUCTS[name](p.source, p.python_only) for p in programs)}

    assert found("0") == set(KNOWN_BUG_CONSTRUCTS) - set(realcode.KNOWN_BUGS)
    assert found("1") == set(KNOWN_BUG_CONSTRUCTS)
