"""The unrolling warning: a Python loop that runs many iterations while a graph is built.

Contract: a loop run as Python (its iterable or condition is not a tensor) while a graph
is being built (an `ag.function` trace, a `Graph().as_default()` block) copies its body
into the graph once per iteration. `check(iterations)` is called by `for_stmt` and
`while_stmt` with the number of iterations run so far; when it reaches
`UNROLL_WARNING_THRESHOLD` during graph building it warns (`UnrolledLoopWarning`), once
per loop location, at the user's file:line of the loop, with the fix (`ag.range` or a
tensor bound, so the loop is staged as one `while_loop`). Eager loops never warn.
"""

from autograph_py.runtime import context
from autograph_py.runtime.operators import trace_warnings

UNROLL_WARNING_THRESHOLD = 1000


class UnrolledLoopWarning(UserWarning):
    """A Python loop copied its body into a graph once per iteration."""


def check(iterations):
    """Warn if this is the threshold-th iteration of a Python loop unrolled into a graph."""
    if iterations != UNROLL_WARNING_THRESHOLD or context.current_graph() is None:
        return
    trace_warnings.warn_once(UnrolledLoopWarning, lambda where: (
        f"a Python loop ran {UNROLL_WARNING_THRESHOLD} iterations while the graph was being "
        f"traced, at {where}: each iteration is copied into the graph (the graph and the "
        "trace time grow with the loop). Loop over a tensor so it is staged as one "
        "while_loop: `for i in ag.range(n)`, or make the bound a tensor (`ag.constant(n)`)."))
