"""The fuzzer's programs through `jax.jit(ag.to_graph(f))`, against plain Python.

Run: `python -m tests.jax.campaign --seed S --count N [--autodiff]`. Each program (tests/fuzz's
generator) counts as a match (Python's answers on every input), a documented rejection
(`DOCUMENTED`: a Python list whose length would depend on traced data, docs/jax.md), a
wrong answer or a crash (any other error); wrong answers and crashes are printed with the
program's seed to reproduce. A program on values no tensor can be (real-code strings,
dicts...: `Program.python_only`) is not run here, and counts as `python_only`. CI runs a
few of them (test_jax_fuzz.py).
"""

import argparse
import collections
import re

import jax
import jax.numpy as jnp
import numpy as np

import autograph_py as ag
from tests.fuzz import runner
from tests.fuzz.generator import generate

# The rejections docs/jax.md documents: JAX arrays have static shapes.
DOCUMENTED = re.compile(r"is a Python list that (one branch of the `if`|the loop) resizes")


def jax_answers(fn, inputs, autodiff=False):
    """`fn` converted, under jax.jit, on each `(a, b, xs)` as int32 arrays; with `autodiff`,
    also under `jax.jvp` (so loops that may stop early take the lowering reverse mode
    needs: a bounded scan with its guard folded into the step's `if`, guards.py)."""
    converted = ag.to_graph(fn)
    if autodiff:
        def under_jvp(a, b, xs):
            return jax.jvp(lambda _: converted(a, b, xs), (0.0,), (1.0,))[0]

        jitted = jax.jit(under_jvp)
    else:
        jitted = jax.jit(lambda a, b, xs: converted(a, b, xs))
    return [runner.normalize(jax.tree_util.tree_map(
        np.asarray, jitted(jnp.int32(a), jnp.int32(b), jnp.asarray(xs, jnp.int32))))
        for a, b, xs in inputs]


def outcome(program, autodiff=False):
    """('match' | 'rejected' | 'wrong' | 'crash' | 'python_only', detail) of one
    generated program."""
    if program.python_only:
        return "python_only", "its values cannot be arrays"
    fn = runner.load(program.source)
    expected = runner.oracle(fn, program.inputs)
    try:
        answers = jax_answers(fn, program.inputs, autodiff)
    except Exception as e:  # noqa: BLE001  (every error is classified)
        kind = "rejected" if DOCUMENTED.search(str(e)) else "crash"
        return kind, runner.describe(e)
    for args, want, got in zip(program.inputs, expected, answers):
        if not runner.same(want, got):
            return "wrong", f"f{args!r}: Python {want!r}, jax.jit {got!r}"
    return "match", ""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--autodiff", action="store_true",
                        help="run each program under jax.jvp too (bounded-scan loops)")
    args = parser.parse_args(argv)
    counts = collections.Counter()
    for index in range(args.count):
        program = generate(args.seed, index)
        try:
            kind, detail = outcome(program, args.autodiff)
        except runner.OracleError:
            kind, detail = "invalid", "the program fails as plain Python"
        counts[kind] += 1
        if kind in ("wrong", "crash"):
            print(f"{kind.upper()} seed {args.seed + index}: {detail}\n{program.source}")
    print(f"JAX FUZZ {counts['match']}/{args.count} wrong={counts['wrong']} "
          f"crash={counts['crash']} rejected={counts['rejected']} "
          f"invalid={counts['invalid']} python_only={counts['python_only']}")


if __name__ == "__main__":
    main()
