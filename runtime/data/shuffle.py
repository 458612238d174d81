"""`ShuffleIndices(n; buffer_size, seed)`: the order in which `Dataset.shuffle` yields
its parent's elements, as indices 0..n-1.

Contract: TensorFlow's buffered shuffle on indices: a buffer holds the next
`buffer_size` indices; each output is a uniformly random slot of the buffer, refilled
with the next index (so `buffer_size=1` keeps the order and `buffer_size >= n` is a
uniform permutation). With a seed the order is the same on every run; without one each
run draws a new order, seeded from `ag.random`'s global generator, so that after
`ag.random.set_seed(s)` the sequence of orders is the same in every program run, as in
TensorFlow (the op is stateful, never folded or pruned).
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.ops import random_ops
from autograph_py.runtime.registry import OpDef, register
from autograph_py.runtime.shapes import TensorShape


def _kernel(n, buffer_size, seed):
    # Unseeded: a seed drawn from the global generator (the one jit_compile calls use).
    rng = np.random.default_rng(random_ops.seed_for_compiled_call() if seed is None else seed)
    n = int(n)
    buffer = list(range(min(buffer_size, n)))
    following = len(buffer)
    order = np.empty(n, np.int32)
    # One draw per output, all at once (a draw per iteration cost most of an epoch):
    # output k picks slot floor(u_k * len(buffer)).
    uniforms = rng.random(n).tolist()
    for k in range(n):
        slot = int(uniforms[k] * len(buffer))
        order[k] = buffer[slot]
        if following < n:
            buffer[slot] = following
            following += 1
        else:
            buffer[slot] = buffer[-1]
            buffer.pop()
    return order


register(OpDef("ShuffleIndices", _kernel,
               lambda n, buffer_size, seed: (TensorShape([None]), dtypes.int32),
               stateful=True))
