"""Per-thread execution state: the graphs being built, the recording gradient tapes and
the variable-creation hooks.

Contract:
- All three are stacks of this thread only (DESIGN.md §3): a graph built, a tape
  recording or a hook installed in one thread never sees what another thread runs.
- `executing_eagerly()` is true when no graph is on this thread's graph stack.
  `Graph.as_default()` pushes and pops it (`building(graph)`); `current_graph()` is its
  top, or None. `graphs_being_built[0]` counts the graphs being built in all threads:
  0 says, with one read and no thread-local lookup, that no thread is building one (the
  first test of autograph's fast path). `idle_plain` is a set of types the fast path
  fills while no graph is being built (`remember_idle_plain`), emptied when one starts.
- `tape_stack()` holds the recording `GradientTape`s, innermost last (`apply` records an
  op on each); `variable_creation_hooks()` holds callables that every new `Variable` is
  passed to before it is made (`function` uses one to forbid creation on retraces).
- `autograph_on(why_not=None)` is entered, while a graph is built, by code autograph is
  on for: converted code (`to_graph`'s function, which `ag.function` traces when
  `autograph=True`), or a function it could not convert (`why_not` says why; `ag.function`
  then traces it as written). `autograph_status()` is the innermost `(on, why_not)`, so
  messages suggest autograph only where it is off (a graph built by hand,
  `autograph=False`) and otherwise say why it did not help.
"""

import contextlib
import threading


class _ThreadState(threading.local):
    # threading.local runs __init__ once in every thread that touches the object.
    def __init__(self):
        self.graphs = []
        self.tapes = []
        # Both stacks in one attribute: a thread-local read costs ~35 ns, and the cache hit
        # of an ag.function reads both. The lists are only ever changed in place.
        self.stacks = (self.graphs, self.tapes)
        self.variable_creation_hooks = []
        self.autograph = []  # autograph_on scopes, innermost last: their `why_not`


# Read directly by the hot path (`registry.apply`); everyone else uses the functions.
state = _ThreadState()


def graph_stack():
    return state.graphs


graphs_being_built = [0]
_count_lock = threading.Lock()  # `+=` from two threads could lose a count
# The types whose values run as written while no graph is being built: autograph_py's
# fast path fills it (`remember_idle_plain`), and it is emptied when a graph starts being
# built, so a test made of C calls only (the first line of a function `autograph
# convert` wrote: `type(a) not in plain or ...`) sends every call then to the full test.
idle_plain = set()


def remember_idle_plain(types, may_add):
    """Add `types` to `idle_plain` if no graph is being built and `may_add()` (under the
    lock `building` takes, so no graph starts in between)."""
    with _count_lock:
        if not graphs_being_built[0] and may_add():
            idle_plain.update(types)


def forget_idle_plain():
    with _count_lock:
        idle_plain.clear()


@contextlib.contextmanager
def building(graph):
    """`graph` on top of this thread's graph stack for the block."""
    with _count_lock:
        graphs_being_built[0] += 1
        idle_plain.clear()
    state.graphs.append(graph)
    try:
        yield graph
    finally:
        state.graphs.pop()
        with _count_lock:
            graphs_being_built[0] -= 1


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
def autograph_on(why_not=None):
    state.autograph.append(why_not)
    try:
        yield
    finally:
        state.autograph.pop()


def autograph_status():
    scopes = state.autograph
    return (True, scopes[-1]) if scopes else (False, None)
