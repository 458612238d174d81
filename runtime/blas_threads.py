"""Small matrix products on one BLAS thread (the optional `[perf]` extra: threadpoolctl).

Contract: `plan_needs_one_thread(ops)` says whether a plan's matrix products are all
small enough to run faster on one BLAS thread: their FLOP count is known statically,
some reach `MIN_FLOPS` (below it OpenBLAS stays on one thread by itself, and the switch
would only cost) and none reaches `MAX_FLOPS`. `one_thread()` then sets the BLAS
libraries numpy loaded to one thread and returns what to pass to `restore(previous)`
when the plan is done. Without threadpoolctl both are no-ops (`one_thread()` returns
None), so results never depend on the extra, only the speed.

Why: numpy's OpenBLAS splits a GEMM over every core. On a loaded 2-core machine a
128x256 @ 256x256 product measured 5.6 ms on two threads against 0.24 ms on one; the
threads wait on each other. Switching costs about 4 µs (a get and two sets), paid once
per plan run.
"""

import functools

MIN_FLOPS = 1e6
MAX_FLOPS = 1e8
_PRODUCTS = frozenset({"MatMul"})


def matmul_flops(op):
    """2*m*k*n times the batch size, or None when a dim is not known statically."""
    a, b = (t.shape.dims for t in op.inputs[:2])
    out = op.outputs[0].shape.dims
    if a is None or out is None or None in a or None in out:
        return None
    size = 1
    for d in out:
        size *= d
    return 2 * size * a[-1]


def plan_needs_one_thread(ops):
    flops = [matmul_flops(op) for op in ops if op.type in _PRODUCTS]
    return bool(flops) and None not in flops and max(flops) >= MIN_FLOPS and \
        max(flops) < MAX_FLOPS


@functools.cache
def _blas():
    """The threadpoolctl controller of numpy's BLAS libraries, or None."""
    try:
        import threadpoolctl
    except ImportError:
        return None
    controllers = threadpoolctl.ThreadpoolController().select(user_api="blas")
    return controllers.lib_controllers or None


def one_thread():
    libraries = _blas()
    if libraries is None:
        return None
    previous = [lib.get_num_threads() for lib in libraries]
    for lib, count in zip(libraries, previous):
        if count != 1:
            lib.set_num_threads(1)
    return previous


def restore(previous):
    if previous is not None:
        for lib, count in zip(_blas(), previous):
            if count != 1:
                lib.set_num_threads(count)
