"""Execution context: which graph is being built, if any.

Contract: `executing_eagerly()` is true when no graph is on the default-graph stack.
`Graph.as_default()` pushes and pops this (thread-local) stack; `get_default_graph()`
returns its top, or a global graph when the stack is empty (as TensorFlow 1 did).
"""

import threading

_state = threading.local()


def graph_stack():
    stack = getattr(_state, "graphs", None)
    if stack is None:
        stack = _state.graphs = []
    return stack


def current_graph():
    """The graph ops are added to, or None when executing eagerly."""
    stack = graph_stack()
    return stack[-1] if stack else None


def executing_eagerly():
    return not graph_stack()
