"""Hooks that observe ops as they are applied: gradient tapes, and the eager run context.

Contract: `active_tapes` is the stack of recording tapes (empty → `apply` skips
recording at the cost of one truth test). `EAGER_CONTEXT` is the run context that
stateful kernels get when they run eagerly: variables hold their own values.
"""

active_tapes = []


def record(opdef, inputs, attrs, outputs):
    for tape in list(active_tapes):
        tape._record(opdef, inputs, attrs, outputs)


class EagerContext:
    """Run context for kernels executed eagerly: a variable's value lives on the variable."""

    def read_variable(self, var):
        return var._value

    def write_variable(self, var, value):
        var._value = value

    def run_subgraph(self, graph, inputs):
        from autograph_py.runtime.executor import run_subgraph

        return run_subgraph(self, graph, inputs)


EAGER_CONTEXT = EagerContext()
