"""Pass: buffer reuse. An element-wise ufunc writes into an input that dies at its step
(`out=`), and a fused chain fills its source in place, when that input is a buffer this
plan allocated that no other name can see.

Contract: `run(program)` walks the records in program order tracking the fresh buffers
(ufunc results of fully known static shape; a fused chain's result). A buffer stops
being fresh when something may take a view of it (any kernel or expression reading it:
reshape, transpose, a slice and identity return views) or when an If or While reads or
makes it (a branch may return an input). A ufunc record gets `out` (its first dying fresh
input of the output's static shape and dtype); a chain's first record gets `in_place`.
Switched off, every ufunc and chain allocates its result.
"""

from autograph_py.runtime.plan.fusion import chain
from autograph_py.runtime.plan.passes.records import IFS, WHILES


def run(program):
    _block(program, program.block, set())


def _block(program, block, fresh):
    enabled = "buffers" in program.enabled
    for record in block.records:
        step = record.step
        if record.op.type == "Const" or record.in_run:
            continue
        if record.chain:
            source = _chain_source(record)
            record.in_place = enabled and source in fresh and source in step.frees
            fresh.add(record.chain[-1].step.outputs[0])
        elif record.control or record.op.type in IFS | WHILES:
            for inner in record.blocks:
                if inner is not None:
                    _block(program, inner, fresh)
            # An output may be an input passed through (a branch that returns it, a loop
            # that ran no iteration): neither is a buffer only one name holds any more.
            fresh.difference_update(step.inputs)
            fresh.difference_update(step.outputs)
        elif record.ufunc is None or record.expression is not None:
            fresh.difference_update(step.inputs)
        else:
            _ufunc(record, fresh, enabled)


def _chain_source(record):
    return chain([r.step for r in record.chain]).source


def _ufunc(record, fresh, enabled):
    step, output = record.step, record.op.outputs[0]
    dims = output.shape.dims
    if dims is None or None in dims or not output.shape.rank:
        return
    fresh.add(step.outputs[0])  # a ufunc's result is a new array
    for name, t in zip(step.inputs, record.op.inputs):
        if enabled and name in fresh and name in step.frees and t.shape == output.shape \
                and t.dtype == output.dtype:
            record.out = name
            break
