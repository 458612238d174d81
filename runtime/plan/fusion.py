"""Fusing runs of element-wise ops into one blocked loop.

Contract: `fusible_run(steps, start, reads, outputs)` is how many steps from `start` form a
chain to fuse (0 when fewer than two): each an element-wise ufunc step making one array
of the same fully known static shape and dtype, large enough to be worth blocking; the
first reads one array of that shape, each later one reads its predecessor's value (read
by nothing else, not handed on in `outputs`); every other input is a rank-0 value.
`fused_lines(run, names)` writes the chain as a loop over blocks of `BLOCK_BYTES`, each
block going through every op while it is in the cache, with the ops' ufuncs writing into
the output's block (`out=`): the chain touches memory once per block, not once per op.
Element-wise ops give each element the same result whatever the blocking.
"""

from typing import NamedTuple

import numpy as np

BLOCK_BYTES = 1 << 18  # 256 KiB: a block and its inputs stay in a core's L2 cache


def ufunc_of(step):
    """The element-wise numpy ufunc a single-output step's kernel is (or wraps), else
    None (a generalized ufunc such as np.matmul is not element-wise)."""
    ufunc = getattr(step.kernel, "__wrapped__", step.kernel)
    return ufunc if isinstance(ufunc, np.ufunc) and ufunc.signature is None and \
        len(step.outputs) == 1 else None


def _array_inputs(step):
    return [(name, t) for name, t in zip(step.inputs, step.op.inputs) if t.shape.dims != ()]


def _link(step, shape, dtype):
    """Whether `step` can be part of a chain making arrays of `shape` and `dtype`."""
    out = step.op.outputs[0] if step.op.outputs else None
    return ufunc_of(step) is not None and out.shape.dims == shape and out.dtype == dtype \
        and all(t.shape.dims == shape for _, t in _array_inputs(step)) and \
        len(_array_inputs(step)) == 1


def fusible_run(steps, start, reads, outputs):
    first = steps[start]
    if ufunc_of(first) is None:
        return 0
    out = first.op.outputs[0]
    shape = out.shape.dims
    if shape is None or None in shape or not _link(first, shape, out.dtype) or \
            int(np.prod(shape)) * out.dtype.np_dtype.itemsize < 2 * BLOCK_BYTES:
        return 0
    end = start + 1
    while end < len(steps) and _link(steps[end], shape, out.dtype):
        previous = steps[end - 1].outputs[0]
        if _array_inputs(steps[end])[0][0] != previous or reads[previous] != 1 or \
                previous in outputs:
            break
        end += 1
    return end - start if end - start >= 2 else 0


class Chain(NamedTuple):
    source: str        # the array the first op reads
    result: str        # the last op's value: the array the loop fills
    size: int          # elements
    block: int         # elements per block
    np_dtype: object


def chain(run):
    out = run[-1].op.outputs[0]
    np_dtype = out.dtype.np_dtype
    return Chain(_array_inputs(run[0])[0][0], run[-1].outputs[0],
                 int(np.prod(out.shape.dims)), max(1, BLOCK_BYTES // np_dtype.itemsize),
                 np_dtype)


def fused_calls(run, kernels, block, source_block, operand):
    """One `ufunc(..., out=block)` line per step: the first reads `source_block`, the
    others the block itself; `operand(name)` is the source of another input."""
    lines = []
    for i, (step, kernel) in enumerate(zip(run, kernels)):
        chained = source_block if i == 0 else block
        link = _array_inputs(step)[0][0]
        args = [chained if name == link else operand(name) for name in step.inputs]
        lines.append(f"{kernel}({', '.join(args)}, out={block})")
    return lines
