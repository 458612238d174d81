"""Our graphs as a staging backend (backends.py): the row for symbolic tensors, the lazy
stand-ins the graph operators return (`TensorList`, staged `range`/`enumerate`/`zip`),
and `ag.data` datasets and iterators while a graph is built.

Contract: `register()` adds the row (runtime.operators does, on import); `GraphBackend`
implements `backends.StagingBackend` with our graph ops: `cond`/`while_loop`
(graph_control_flow.py; the shared `for` and probe iterations, staging.py, driven through
the adapter of graph_staging.py), `Assert`, the overloads of graph_builtins.py.
"""

from autograph_py.runtime import context
from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators import (
    backends,
    graph_builtins,
    graph_control_flow,
    staging,
)
from autograph_py.runtime.operators.graph_staging import STAGING
from autograph_py.runtime.operators.iterables import TensorRows, as_staged
from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.ops.array_ops import stack
from autograph_py.runtime.ops.check_ops import Assert
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import equal, logical_not
from autograph_py.runtime.ops.reduction_ops import reduce_any
from autograph_py.runtime.tensor import SymbolicTensor


class GraphBackend:
    name = "graph"
    truth = staticmethod(truth)
    if_stmt = staticmethod(graph_control_flow.if_stmt)
    stack = staticmethod(stack)

    def loop(self, test, body, get_state, set_state, symbol_names, opts, condition=None):
        graph_control_flow.loop(STAGING, test, body, get_state, set_state, symbol_names,
                                opts, condition)

    def for_stmt(self, staged, extra_test, body, get_state, set_state, symbol_names, opts):
        staging.for_stmt(STAGING, staged, extra_test, body, get_state, set_state,
                         symbol_names, opts)

    def not_(self, value):
        return logical_not(truth(value))

    def iterable(self, value):
        return as_staged(value) or TensorRows(convert_to_tensor(value))

    def cond(self, pred, true_fn, false_fn, names):
        return staged_cond(truth(pred), true_fn, false_fn, names=names)

    def contains(self, container, item):
        return reduce_any(equal(container, item))

    def assert_(self, test, message):
        return Assert(truth(test), [message])

    def builtin(self, name):
        return graph_builtins.OVERLOADS.get(name)


_DATA = (Dataset, Iterator)


def _may_claim(cls):
    return (issubclass(cls, SymbolicTensor) or backends.has_marker(cls, "graph")
            or issubclass(cls, _DATA))


def _claims(value):
    # A dataset is staged only while a graph is built (as TF stages `for x in dataset`
    # inside tf.function); eagerly it is a Python iterable.
    return not isinstance(value, _DATA) or context.current_graph() is not None


def register():
    backends.register("graph", _may_claim, _claims, GraphBackend)
