"""`Call`: run a traced graph as one op, so an eager tape can differentiate through it.

Contract:
- `call_graph(graph, inputs)` runs `graph` (a traced function's FuncGraph: `inputs` feed
  `graph.inputs`, the result is one eager tensor per `graph.outputs`) through the
  registry, so active tapes record it like any op. `function` uses it for a call made
  while a tape is recording; other calls need not pay for an op.
- The rule of `Call` builds, once per graph, a gradient graph (the function's inputs and
  output gradients in; the gradients of its floating inputs and of the Variables it reads
  out) by recomputing the function's outputs (`inline_graph`) and differentiating them,
  and runs it with another `Call`. So enclosing tapes record the gradient computation
  too (higher derivatives), and Variables read inside the function get gradients.
"""

import weakref

from autograph_py.runtime.gradients.engine import is_differentiable, variables_read_inside
from autograph_py.runtime.gradients.inline import inline_graph
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _call_kernel(ctx, *inputs, graph, output_specs):
    return tuple(ctx.run_subgraph(graph, list(inputs)))


register(OpDef("Call", _call_kernel, lambda *inputs, graph, output_specs: list(output_specs),
               num_outputs=-1, needs_context=True))


def call_graph(graph, inputs):
    specs = [(t.shape, t.dtype) for t in graph.outputs]
    return tuple(apply("Call", list(inputs), {"graph": graph, "output_specs": specs}))


_gradient_graphs = weakref.WeakKeyDictionary()


def _gradient_graph(graph):
    """(gradient graph, positions among differentiable inputs + Variables it fills)."""
    cached = _gradient_graphs.get(graph)
    if cached is None:
        grad_graph = FuncGraph(graph.name + "_grad", None)
        with grad_graph.as_default():
            xs = [grad_graph.add_input(p.op.name, p.shape, p.dtype) for p in graph.inputs]
            outputs = [t for t in graph.outputs if is_differentiable(t)]
            grad_ys = [grad_graph.add_input(f"grad_{i}", t.shape, t.dtype)
                       for i, t in enumerate(outputs)]
            recomputed = inline_graph(graph, xs, outputs)
            sources = [x for x in xs if is_differentiable(x)] + list(inner_variables_of(graph))
            found = gradients(recomputed, sources, grad_ys=grad_ys)
        slots = [i for i, g in enumerate(found) if g is not None]
        grad_graph.outputs = [found[i] for i in slots]
        cached = _gradient_graphs[graph] = (grad_graph, slots)
    return cached


def gradient_slots(graph):
    """The positions (among `graph`'s differentiable inputs, then the Variables it reads)
    of the gradients that flow: None at the others."""
    return _gradient_graph(graph)[1]


def inner_variables_of(graph):
    """The Variables `graph` reads, in the order the `Call` rule returns their gradients."""
    return variables_read_inside({"graph": graph})


@register_gradient("Call")
def _call_grad(op, *grads):
    return call_gradient(op, grads, call_graph)


def call_gradient(op, grads, call):
    """The rule of a call op (`Call`, or the compiled `XlaCall`): its gradient graph run
    by `call(graph, inputs)`, the same kind of op."""
    graph = op.attrs["graph"]
    grad_graph, slots = _gradient_graph(graph)
    differentiable = [i for i, t in enumerate(op.inputs) if is_differentiable(t)]
    result = [None] * (len(differentiable) + len(inner_variables_of(graph)))
    if slots:
        grad_ys = [zeros_like(o) if g is None else g
                   for o, g in zip(op.outputs, grads) if is_differentiable(o)]
        for slot, g in zip(slots, call(grad_graph, list(op.inputs) + grad_ys)):
            result[slot] = g
    input_grads = [None] * len(op.inputs)
    for i, g in zip(differentiable, result):
        input_grads[i] = g
    return tuple(input_grads) + tuple(result[len(differentiable):])
