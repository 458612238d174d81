"""`gradients(ys, xs)`: symbolic differentiation of a graph, as `tf.compat.v1.gradients`.

Contract: `ys` and `xs` are symbolic tensors (or lists of them) of one graph; `xs` may
contain Variables (their reads in the graph are differentiated). The gradient ops are
added to that graph, found by walking Operations backwards from `ys`. Returns a list
with one entry per x: the gradient of sum(ys) (each y weighted by its `grad_ys` entry,
ones by default), None where x does not reach ys (zeros with
`unconnected_gradients='zero'`).
"""

from autograph_py.runtime import nest
from autograph_py.runtime.gradients import engine
from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import SymbolicTensor


def gradients(ys, xs, grad_ys=None, unconnected_gradients="none"):
    ys = nest.flatten(ys)
    xs = nest.flatten(xs)
    grad_ys = [None] * len(ys) if grad_ys is None else nest.flatten(grad_ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"gradients: grad_ys has {len(grad_ys)} entries but ys has {len(ys)}")
    ys = [convert_to_tensor(y) for y in ys]
    symbolic = [y for y in ys if isinstance(y, SymbolicTensor)]
    if len(symbolic) != len(ys):
        raise TypeError("gradients() differentiates a graph: ys must be symbolic tensors "
                        "(built inside `with ag.Graph().as_default():` or a traced function); "
                        "eagerly, use ag.GradientTape")
    graph = symbolic[0].graph
    with graph.as_default():
        return engine.differentiate(ops_reaching(ys), ys, grad_ys, xs, unconnected_gradients)
