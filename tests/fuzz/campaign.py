"""A fuzzing campaign: programs (seed, 0..count-1), their outcomes, the failures minimized.

Counting rule: each program counts once, under the worst outcome of its modes, in the
order wrong > hang > crash > rejected > match (runner.SEVERITY); a program whose oracle
fails (a generator bug: the program is not valid Python for its inputs) counts as a
crash. So the counts add up to the number of programs. Rejections are also counted per
kind (rejections.py), once per program and kind.

Each distinct failure (runner.ModeResult.signature(): outcome, error type and message
shape; the first mode in runner.MODES order that shows it) is minimized once, while the
time budget lasts, and can be written as a regression case.
"""

import collections
import dataclasses
import re
import time

from tests.fuzz import cases, minimizer, rules, runner
from tests.fuzz.generator import generate


@dataclasses.dataclass
class Summary:
    total: int = 0
    counts: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    rejections: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    failures: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    vectorized: int = 0  # programs a staged mode of which vectorized a loop (runner.py)

    def last_line(self):
        c = self.counts
        return (f"FUZZ {c['match']}/{self.total} wrong={c['wrong']} crash={c['crash']} "
                f"hang={c['hang']} rejected={c['rejected']}")


def run_campaign(seed, count, minimize=True, minimize_seconds=20.0, write_cases=None,
                 seconds=3.0, per_kind=1, out=print):
    """Run programs (seed, 0..count-1). `write_cases`: None, or the directory to write
    minimized failures to; `per_kind`: how many programs of each failure signature to
    minimize (minimized programs that differ only in names and numbers count once)."""
    summary = Summary()
    minimize_deadline = time.monotonic() + minimize_seconds
    shapes = set()
    for index in range(count):
        program = generate(seed, index)
        summary.total += 1
        try:
            report = runner.run(program.source, program.inputs, runner.modes_of(program),
                                seconds=seconds)
        except runner.OracleError as e:
            summary.counts["crash"] += 1
            out(f"seed={seed} index={index} invalid program, the oracle failed: {e}")
            continue
        summary.counts[report.outcome] += 1
        summary.vectorized += any(r.vectorized for r in report.modes.values())
        summary.rejections.update({r.kind for r in report.modes.values()
                                   if r.outcome == "rejected"})
        failures = report.failures()
        if not failures:
            continue
        out(f"seed={seed} index={index} {report.outcome}: " + "; ".join(
            f"{r.mode}={r.outcome} {r.detail}" for r in failures))
        for failure in failures:
            signature = failure.signature()
            summary.failures[signature] += 1
            if summary.failures[signature] > per_kind or not minimize or (
                    time.monotonic() > minimize_deadline):
                continue
            source, inputs, minimized = shrink(program.source, program.inputs, failure,
                                               seconds, minimize_deadline,
                                               _types(report.expected[0]))
            if (signature, shape(source)) in shapes:
                continue
            shapes.add((signature, shape(source)))
            out(f"  minimized: {minimized.mode}={minimized.outcome} {minimized.detail}")
            out("    " + source.rstrip().replace("\n", "\n    "))
            if write_cases is not None:
                path = cases.write(source, inputs, seed, index, minimized, write_cases,
                                   runner.modes_of(program))
                out(f"  wrote {path}")
    return summary


def shape(source):
    """`source` without its names and numbers: programs alike up to renaming."""
    return re.sub(r"\b[a-z_]\w*\b|\d+", "_", source)


def shrink(source, inputs, failure, seconds, deadline, answer_types=None):
    """`minimizer.minimize` while `failure` (same mode, same signature) persists: the
    smaller source and inputs, and the failure as they show it. `answer_types`: what
    `_types` of the program's answers must stay (None: ints, or tuples of ints)."""
    last = {}

    def still_fails(candidate, candidate_inputs):
        if not rules.bound_before_use(candidate):  # legitimate for the oracle, not staged
            return False
        try:
            report = runner.run(candidate, candidate_inputs, modes=(failure.mode,),
                                seconds=seconds)
        except runner.OracleError:
            return False
        if not all(_ints(answer) if answer_types is None else _types(answer) == answer_types
                   for answer in report.expected):
            return False  # the generator's contract: f returns ints or tuples of ints
        result = report.modes[failure.mode]
        last[candidate, repr(candidate_inputs)] = result
        return result.signature() == failure.signature()

    source, inputs = minimizer.minimize(source, inputs, still_fails, deadline)
    return source, inputs, last.get((source, repr(inputs)), failure)


def _types(answer):
    """The types of `answer`'s items (real-code programs return strings, dicts ... too)."""
    values = answer if isinstance(answer, tuple) else (answer,)
    return tuple(type(value) for value in values)


def _ints(answer):
    values = answer if isinstance(answer, tuple) else (answer,)
    return all(type(value) is int for value in values)
