"""The differential fuzzer's programs through the ONNX export, three ways.

`python -m tests.onnx.fuzz_export --count N --seed S` (the long run; the fixed budget
is tests/onnx/test_fuzz_programs.py). Each program `(S, i)` of tests/fuzz/generator.py
is traced by `ag.function` with the fuzzer's signature (`a`, `b`: int32 scalars, `xs`:
int32[None]); one that stages is exported with `ag.onnx.export` and run, on the
program's own inputs, by our runtime (the oracle), onnx's ReferenceEvaluator and
onnxruntime. Each program ends as one outcome (`OUTCOMES`):

- `unstaged`: nothing to export: the program runs on Python values only, its trace is
  a documented rejection or a crash (the fuzzer's own business, tests/fuzz), or its
  result holds no tensor (nothing it returns depended on one). A result mixing tensors
  and Python ints (`return (s, 0)`) is exported with each int made a constant tensor
  (`ag.onnx.export` refuses Python values in a result: an ONNX output is a tensor);
- `refused`: `ag.onnx.export` raised an `ExportError` naming an op of ours (`(Type)` in
  the message); counted per op type;
- `match`: both ONNX runners gave our answers (ints exactly);
- `wrong`: a runner gave another answer, or crashed, or ran past `SECONDS`, or the
  export failed any other way (an AssertionError of the exporter, an ExportError naming
  no op): all exporter bugs.

The last line is `ONNX-FUZZ match=m refused=r unstaged=u wrong=w total=t`.
"""

import argparse
import collections
import contextlib
import dataclasses
import functools
import io
import re
import sys

import numpy as np

import autograph_py as ag
from tests.fuzz import runner
from tests.fuzz.generator import generate
from tests.onnx import runners

SIGNATURE = (ag.TensorSpec([], ag.int32), ag.TensorSpec([], ag.int32),
             ag.TensorSpec([None], ag.int32))
OUTCOMES = ("match", "refused", "unstaged", "wrong")
# Seconds one program's runs may take in each ONNX runner (they take milliseconds): a
# model whose Loop never ends is stopped and counted wrong, not left to hang the test.
SECONDS = 10.0
_OP = re.compile(r"op '[^']*' \((\w+)\)")


@dataclasses.dataclass
class Result:
    outcome: str
    detail: str = ""  # the op type refused, or what went wrong


def arguments(program):
    return [(np.int32(a), np.int32(b), np.asarray(xs, np.int32))
            for a, b, xs in program.inputs]


def check_source(source, inputs):
    """The outcome of one program's module text `source` on `inputs` (numpy tuples)."""
    fn = _tensor_results(runner.load(source))
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # programs may print at trace time
            concrete = ag.function(fn, input_signature=list(SIGNATURE)) \
                .get_concrete_function()
    except Exception as e:  # noqa: BLE001  (a trace that fails stages nothing to export)
        return Result("unstaged", runner.describe(e))
    if all(leaf.op.type == "Const" for leaf in ag.nest.flatten(concrete.structured_outputs)):
        return Result("unstaged", "the result holds no tensor")
    try:
        model = ag.onnx.export(fn, *SIGNATURE)
    except ag.onnx.ExportError as e:
        found = _OP.search(str(e))
        return Result("refused", found.group(1)) if found else \
            Result("wrong", f"refused naming no op: {e}")
    except Exception as e:  # noqa: BLE001  (any other failure of the exporter is a bug)
        return Result("wrong", f"export failed: {runner.describe(e)}")
    oracle = runners.ours(fn, SIGNATURE)
    onnx_runtime = functools.partial(runners.runtime, seconds=SECONDS)
    for name, make in (("reference", runners.reference), ("onnxruntime", onnx_runtime)):
        try:
            run = make(model)
            with runner.time_limit(SECONDS):  # a Loop that never ends is a wrong answer
                for args in inputs:
                    want, got = oracle(*args), run(*args)
                    if not _equal(want, got):
                        call = tuple(np.asarray(x).tolist() for x in args)
                        return Result("wrong", f"{name} f{call}: ours {want}, {name} {got}")
        except (Exception, runner.Hang) as e:  # noqa: BLE001  (a runner failing is our bug)
            return Result("wrong", f"{name} failed: {runner.describe(e)}")
    return Result("match")


def _tensor_results(program):
    """`program` with each Python int of its result made an int32 constant."""
    def f(a, b, xs):
        return ag.nest.map_structure(_as_tensor, program(a, b, xs))

    return f


def _as_tensor(value):
    return value if isinstance(value, ag.Tensor) else ag.constant(value, ag.int32)


def _equal(want, got):
    """Same count, dtypes, shapes and values (the programs compute on int32 only)."""
    return len(want) == len(got) and all(
        w.dtype == g.dtype and w.shape == g.shape and np.array_equal(w, g)
        for w, g in zip(want, got))


def check(program):
    if program.python_only:
        return Result("unstaged", "a program on Python values only")
    return check_source(program.source, arguments(program))


@dataclasses.dataclass
class Summary:
    counts: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    refused_ops: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    wrong: list = dataclasses.field(default_factory=list)  # (seed, index, detail)

    @property
    def total(self):
        return sum(self.counts.values())

    def last_line(self):
        counts = " ".join(f"{o}={self.counts[o]}" for o in OUTCOMES)
        return f"ONNX-FUZZ {counts} total={self.total}"


def run_campaign(seed, count, out=None):
    summary = Summary()
    for index in range(count):
        program = generate(seed, index)
        result = check(program)
        summary.counts[result.outcome] += 1
        if result.outcome == "refused":
            summary.refused_ops[result.detail] += 1
        elif result.outcome == "wrong":
            summary.wrong.append((seed, index, result.detail))
            if out is not None:
                out(f"wrong: program ({seed}, {index}): {result.detail}")
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.onnx.fuzz_export",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="program i uses seed + i")
    args = parser.parse_args(argv)
    summary = run_campaign(args.seed, args.count, out=print)
    print("refused per op: " + (", ".join(
        f"{op}={n}" for op, n in summary.refused_ops.most_common()) or "none"))
    print(summary.last_line())
    return 1 if summary.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
