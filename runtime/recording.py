"""What `apply` needs around a kernel: telling the gradient tapes, and the eager run context.

Contract: `record(...)` hands an applied op to every tape recording in this thread
(`context.tape_stack()`; `apply` skips the call when it is empty). `EAGER_CONTEXT` is the
run context that stateful kernels get when they run eagerly: variables hold their own
values, and subgraphs run through the executor's plans. `ValuesContext(values)` is one
whose reads of some Variables give given values.
"""

from autograph_py.runtime import context
from autograph_py.runtime.plan import executor


def record(opdef, inputs, attrs, outputs):
    for tape in list(context.state.tapes):
        tape._record(opdef, inputs, attrs, outputs)


class EagerContext:
    """Run context for kernels executed eagerly: a variable's value lives on the variable."""

    def read_variable(self, var):
        return var._value

    def write_variable(self, var, value):
        var._value = value

    run_subgraph = executor.run_subgraph  # (graph, inputs) -> outputs of the graph's plan


EAGER_CONTEXT = EagerContext()


class ValuesContext(EagerContext):
    """An eager run context whose reads of some Variables give given values (`values`:
    id(variable) -> array), the rest their own: a recorded call's gradient runs with the
    values the call left (function_call.py)."""

    def __init__(self, values):
        self._values = values

    def read_variable(self, var):
        value = self._values.get(id(var))
        return var._value if value is None else value
