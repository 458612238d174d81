"""The passes in the order they run, each reading what the earlier ones decided.

Contract: `annotate(plan, namer, enabled)` returns the `Program` (records.py) of `plan`
with every decision of the passes named in `enabled` (a subset of `OPTIONAL`; all by
default) written on its records; runtime/plan/printer.py prints it. Kernel names are
not optional: the printer needs them. The order's constraints:
- inlining first: it makes the blocks the others walk;
- vectorize after python_scalars (it reads and writes values as the plan holds them);
  its lines are its own, so the later passes never see them;
- python_scalars before anything that writes operands: how a value is held decides its
  expressions, and views decide its reads;
- kernel names before folding: an expression calls its kernel where only it can fail;
- fusion before folding (a chain's links are no expressions) and before buffers;
- buffers after folding: an expression may return a view of its input (`x[i]`);
- the other globals last: only records printed as kernel calls or chains need them.
Loop variables are named when the steps are scheduled (executor.Plan, inlining).
"""

import os

from autograph_py.runtime.plan.passes import (
    buffers,
    folding,
    fusion,
    inlining,
    naming,
    python_scalars,
    vectorize,
)
from autograph_py.runtime.plan.passes.records import Program

OPTIONAL = frozenset({"inlining", "python_scalars", "vectorize", "fusion", "expressions",
                      "folding", "buffers", "loop_names"})
PASSES = (inlining.run, python_scalars.run, vectorize.run, naming.kernels, fusion.run,
          folding.run, buffers.run, naming.globals_)


def default_passes():
    """Every optional pass, less the vectorization pass when the environment variable
    AUTOGRAPH_VECTORIZE is "0" (to compare a program's answers with it on and off)."""
    if os.environ.get("AUTOGRAPH_VECTORIZE") == "0":
        return OPTIONAL - {"vectorize"}
    return OPTIONAL


def annotate(plan, namer, enabled=OPTIONAL):
    program = Program(plan, namer, frozenset(enabled))
    for run in PASSES:
        run(program)
    return program
