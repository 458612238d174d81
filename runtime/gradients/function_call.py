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
- A call recorded eagerly keeps what its own Variable reads gave (`variable_reads`: the
  op has them as extra outputs, `keeps_reads`), and its gradient graph takes them as
  inputs instead of reading the Variables again: the gradient is at the values the call
  read, as eager ops on a tape give it, even when the function assigns a Variable after
  reading it or the caller assigns one before asking for the gradient. Reads inside the
  function's branches and loops are repeated, from the values the Variables held when
  the call returned (`values_after`; exact unless the function assigns the Variable).
"""

from autograph_py.runtime import context
from autograph_py.runtime.gradients.engine import is_differentiable, variables_read_inside
from autograph_py.runtime.gradients.inline import inline_graph
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.ops.math_ops import add
from autograph_py.runtime.plan.executor import Plan, subgraph_plan
from autograph_py.runtime.recording import ValuesContext
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _call_kernel(ctx, *inputs, graph, output_specs, keeps_reads=False, values_after=None,
                 variable_values=None):
    if variable_values is not None:  # a gradient: reads give the values its call left
        ctx = ValuesContext(variable_values)
    if keeps_reads:  # only eagerly: the standard context, whose reads are the Variables'
        return tuple(_reading_plan(graph).function(ctx, list(inputs)))
    return tuple(ctx.run_subgraph(graph, list(inputs)))


register(OpDef("Call", _call_kernel, lambda *inputs, output_specs, **_: list(output_specs),
               num_outputs=-1, needs_context=True))


def call_graph(graph, inputs, variable_values=None):
    """The outputs of `graph` on `inputs`, as a `Call` op (see the module docstring);
    `variable_values` (id(Variable) -> array) are what its Variable reads give."""
    attrs = call_attrs(graph, variable_values)
    outputs = tuple(apply("Call", list(inputs), attrs))
    keep_values_after(graph, attrs)
    return outputs[:len(graph.outputs)]


def call_attrs(graph, variable_values=None):
    """The attrs of a call op of `graph`: its outputs, then, when it keeps what its
    Variable reads gave (recorded eagerly), their values; `values_after` is filled by
    `keep_values_after` once the op has run."""
    specs = [(t.shape, t.dtype) for t in graph.outputs]
    attrs = {"graph": graph, "output_specs": specs}
    if variable_values is not None:
        attrs["variable_values"] = variable_values
    if recording_eagerly() and inner_variables_of(graph):
        specs += [(t.shape, t.dtype) for t in variable_reads(graph)]
        attrs.update(keeps_reads=True, values_after={})
    return attrs


def keep_values_after(graph, attrs):
    """What the Variables `graph` reads hold after a call that keeps its reads (what
    `variable_values` made its reads give, for a gradient's call): its reads inside
    branches and loops are recomputed from those (exact unless the function assigns the
    Variable)."""
    after = attrs.get("values_after")
    if after is not None:
        given = attrs.get("variable_values")
        if given:
            after.update((id(v), given.get(id(v), v._value)) for v in inner_variables_of(graph))
        else:
            for v in inner_variables_of(graph):
                after[id(v)] = v._value


def recording_eagerly():
    state = context.state
    return bool(state.tapes) and not state.graphs


def variable_reads(graph):
    """The outputs of `graph`'s own ReadVariable ops (not those inside its branches and
    loops), in graph order."""
    return graph.derived.once("variable_reads", lambda: [
        op.outputs[0] for op in graph.get_operations() if op.type == "ReadVariable"])


def reading_outputs(graph):
    """What a call of `graph` that keeps its reads fetches."""
    return list(graph.outputs) + variable_reads(graph)


def _reading_plan(graph):
    if not variable_reads(graph):  # nothing more to fetch: the graph's own plan
        return subgraph_plan(graph)
    return graph.derived.once("reading_plan", lambda: Plan(
        graph, reading_outputs(graph), graph.stateful_ops, graph.inputs))


def _gradient_graph(graph, with_reads=False):
    """(gradient graph, positions among differentiable inputs + Variables it fills). With
    `with_reads`, the graph takes the values of `variable_reads(graph)` after the inputs."""
    slot = "gradient_graph_with_reads" if with_reads else "gradient_graph"
    return graph.derived.once(slot, lambda: _build_gradient_graph(graph, with_reads))


def _build_gradient_graph(graph, with_reads):
    grad_graph = FuncGraph(graph.name + "_grad", None)
    with grad_graph.as_default():
        xs = [grad_graph.add_input(p.op.name, p.shape, p.dtype) for p in graph.inputs]
        reads = variable_reads(graph) if with_reads else []
        read_values = [grad_graph.add_input(f"read_{i}", t.shape, t.dtype)
                       for i, t in enumerate(reads)]
        outputs = [t for t in graph.outputs if is_differentiable(t)]
        grad_ys = [grad_graph.add_input(f"grad_{i}", t.shape, t.dtype)
                   for i, t in enumerate(outputs)]
        recomputed = inline_graph(graph, xs, outputs, known=zip(reads, read_values))
        diff_xs = [x for x in xs if is_differentiable(x)]
        variables = list(inner_variables_of(graph))
        found = gradients(recomputed, diff_xs + read_values + variables, grad_ys=grad_ys)
        # A Variable's gradient: through the values its kept reads gave, and through the
        # reads still inside branches and loops.
        position = {id(v): len(diff_xs) + k for k, v in enumerate(variables)}
        by_read = found[len(diff_xs):len(diff_xs) + len(reads)]
        found = found[:len(diff_xs)] + found[len(diff_xs) + len(reads):]
        for read, g in zip(reads, by_read):
            if g is not None:
                slot = position[id(read.op.attrs["var"])]
                found[slot] = g if found[slot] is None else add(found[slot], g)
    slots = [i for i, g in enumerate(found) if g is not None]
    grad_graph.outputs = [found[i] for i in slots]
    return grad_graph, slots


def gradient_slots(graph):
    """The positions (among `graph`'s differentiable inputs, then the Variables it reads)
    of the gradients that flow: None at the others."""
    return _gradient_graph(graph)[1]


def inner_variables_of(graph):
    """The Variables `graph` reads, in the order the `Call` rule returns their gradients."""
    return variables_read_inside({"graph": graph})


@register_gradient("Call", takes_none=True)
def _call_grad(op, *grads):
    return call_gradient(op, grads, call_graph)


def call_gradient(op, grads, call):
    """The rule of a call op (`Call`, or the compiled `XlaCall`): its gradient graph run
    by `call(graph, inputs)`, the same kind of op. A gradient reaching a kept read (a
    higher derivative through the value a read gave) goes to its Variable."""
    graph = op.attrs["graph"]
    keeps_reads = op.attrs.get("keeps_reads", False)
    grad_graph, slots = _gradient_graph(graph, keeps_reads)
    differentiable = [i for i, t in enumerate(op.inputs) if is_differentiable(t)]
    variables = inner_variables_of(graph)
    result = [None] * (len(differentiable) + len(variables))
    num_outputs = len(graph.outputs)
    if slots and any(g is not None for g in grads[:num_outputs]):
        kept = list(op.outputs[num_outputs:]) if keeps_reads else []
        grad_ys = [zeros_like(o) if g is None else g
                   for o, g in zip(op.outputs[:num_outputs], grads) if is_differentiable(o)]
        for slot, g in zip(slots, call(grad_graph, list(op.inputs) + kept + grad_ys,
                                       op.attrs.get("values_after"))):
            result[slot] = g
    if keeps_reads:
        position = {id(v): len(differentiable) + k for k, v in enumerate(variables)}
        for read, g in zip(variable_reads(graph), grads[num_outputs:]):
            if g is not None:
                slot = position[id(read.op.attrs["var"])]
                result[slot] = g if result[slot] is None else add(result[slot], g)
    input_grads = [None] * len(op.inputs)
    for i, g in zip(differentiable, result):
        input_grads[i] = g
    return tuple(input_grads) + tuple(result[len(differentiable):])
