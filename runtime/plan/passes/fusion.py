"""Pass: chains of element-wise ufuncs on large arrays, each run as one blocked loop.

Contract: `run(program)` marks, in every block, each chain that runtime/plan/fusion.py's
`fusible_run` accepts: its first record gets `chain` (the chain's records), the others
`in_run`. The printer writes the chain as one loop over cache-sized blocks; where its
result lives is the buffers pass's decision.
"""

from collections import Counter

from autograph_py.runtime.plan.fusion import fusible_run
from autograph_py.runtime.plan.passes.records import walk


def run(program):
    _block(program, program.block)
    for record in walk(program.block):
        for inner in record.blocks:
            if inner is not None:
                _block(program, inner)


def _block(program, block):
    reads = Counter(name for record in block.records for name in record.step.inputs)
    records = [r for r in block.records if r.op.type != "Const"]
    steps = [r.step for r in records]
    i = 0
    while i < len(steps):
        length = fusible_run(steps, i, reads, block.outputs)
        if length:
            records[i].chain = records[i:i + length]
            for record in records[i + 1:i + length]:
                record.in_run = True
            program.uses_errstate = True  # the ufuncs are called without their switch
            i += length
        else:
            i += 1
