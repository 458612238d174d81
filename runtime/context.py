"""Per-thread execution state: the graphs being built, the recording gradient tapes and
the variable-creation hooks.

Contract:
- All three are stacks of this thread only (DESIGN.md §3): a graph built, a tape
  recording or a hook installed in one thread never sees what another thread runs.
- `executing_eagerly()` is true when no graph is on this thread's graph stack.
  `Graph.as_default()` pushes and pops it; `current_graph()` is its top, or None.
- `tape_stack()` holds the recording `GradientTape`s, innermost last (`apply` records an
  op on each); `variable_creation_hooks()` holds callables that every new `Variable` is
  passed to before it is made (`function` uses one to forbid creation on retraces).
- `converted_code()` is entered by converted code (`to_graph`'s function, which
  `ag.function` traces when `autograph=True`) while it builds a graph;
  `in_converted_code()` says whether some is building now, so messages suggest
  autograph only where it is off (a graph built by hand, `autograph=False`).
"""

import contextlib
import threading


class _ThreadState(threading.local):
    # threading.local runs __init__ once in every thread that touches the object.
    def __init__(self):
        self.graphs = []
        self.tapes = []
        self.variable_creation_hooks = []
        self.converted_code = 0  # depth of converted code building a graph


# Read directly by the hot path (`registry.apply`); everyone else uses the functions.
state = _ThreadState()


def graph_stack():
    return state.graphs


def tape_stack():
    return state.tapes


def variable_creation_hooks():
    return state.variable_creation_hooks


def current_graph():
    """The graph ops are added to, or None when executing eagerly."""
    graphs = state.graphs
    return graphs[-1] if graphs else None


def executing_eagerly():
    return not state.graphs


@contextlib.contextmanager
def converted_code():
    state.converted_code += 1
    try:
        yield
    finally:
        state.converted_code -= 1


def in_converted_code():
    return state.converted_code > 0
