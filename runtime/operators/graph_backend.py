"""Our graphs as a staging backend (backends.py): the row for symbolic tensors, the lazy
stand-ins the graph operators return (`TensorList`, staged `range`/`enumerate`/`zip`),
and `ag.data` datasets and iterators while a graph is built.

Contract: `register()` adds the row (runtime.operators does, on import); `GraphBackend`
implements `backends.StagingBackend` with our graph ops: the staged statements are the
shared algorithm (staging.py) over the adapter of graph_staging.py (`cond`/`while_loop`);
a ternary, `and`/`or` is one `cond`; `Assert`; the overloads of graph_builtins.py.
"""

from autograph_py.runtime import context
from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.data import Dataset, Iterator
from autograph_py.runtime.operators import backends, graph_builtins, staging
from autograph_py.runtime.operators.graph_staging import STAGING
from autograph_py.runtime.operators.iterables import TensorRows, as_staged
from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.ops.array_ops import stack
from autograph_py.runtime.ops.check_ops import Assert
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import equal, logical_not
from autograph_py.runtime.ops.reduction_ops import reduce_any
from autograph_py.runtime.tensor import SymbolicTensor


class GraphBackend(staging.Statements):
    name = "graph"
    adapter = STAGING
    truth = staticmethod(truth)
    stack = staticmethod(stack)

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
