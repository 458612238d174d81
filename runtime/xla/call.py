"""`XlaCall`: a compiled (jit_compile) function graph run as one op, so gradient tapes
can differentiate through it, with the backward pass compiled too.

Contract: `xla_call(graph, inputs, variable_values=None)` runs `graph` through its
`CompiledGraph` (one per graph) as an op of the registry, so active tapes record it.
Recorded eagerly, a graph that only computes values runs its forward with `jax.vjp`'s
residuals kept for the tape (`pullback`), and its gradient is one compiled backward
call. Otherwise the op is made as a `Call` is (`function_call.call_attrs`: recorded
eagerly, it keeps what its Variable reads gave) and its gradient rule is `Call`'s
(`function_call.call_gradient`): the gradient graph, run by another `XlaCall` whose
reads give `variable_values`, so it is lowered and jitted as well, and enclosing tapes
can record it (higher orders). Its lowering inlines the graph, so an XlaCall inside a
compiled graph is compiled with it.
"""

from autograph_py.runtime.gradients.function_call import (
    call_attrs,
    call_gradient,
    keep_values_after,
    reading_outputs,
    recording_eagerly,
    variable_reads,
)
from autograph_py.runtime.recording import ValuesContext
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient
from autograph_py.runtime.xla import pullback
from autograph_py.runtime.xla.compiled import CompiledGraph
from autograph_py.runtime.xla.lowering import lower_graph
from autograph_py.runtime.xla.table import register_lowering


def compiled_graph(graph, inputs=None, outputs=None):
    """The CompiledGraph of `graph` (its inputs and outputs by default), made once (kept
    in `graph.derived`, so it dies with the graph)."""
    return graph.derived.once("xla", lambda: CompiledGraph(
        graph, graph.inputs if inputs is None else inputs,
        graph.outputs if outputs is None else outputs))


def _reading_compiled(graph):
    if not variable_reads(graph):  # nothing more to return: the graph's own
        return compiled_graph(graph)
    return graph.derived.once("xla_with_reads", lambda: CompiledGraph(
        graph, graph.inputs, reading_outputs(graph)))


def _xla_call_kernel(ctx, *inputs, graph, output_specs, residuals=None, keeps_reads=False,
                     values_after=None, variable_values=None):
    # Variables live on themselves (compiled calls run eagerly), but an op holding a graph
    # takes the context, which is how tapes see it may read Variables; a gradient's reads
    # give the values its call left.
    if variable_values is not None:
        ctx = ValuesContext(variable_values)
    if keeps_reads:
        return tuple(_reading_compiled(graph).run(list(inputs), ctx))
    compiled = compiled_graph(graph)
    if residuals is not None:
        return tuple(pullback.run_recorded(compiled, list(inputs), residuals))
    return tuple(compiled.run(list(inputs), ctx))


register(OpDef("XlaCall", _xla_call_kernel,
               lambda *inputs, graph, output_specs, **_: list(output_specs), num_outputs=-1,
               needs_context=True))


def xla_call(graph, inputs, variable_values=None):
    compiled = compiled_graph(graph)
    if variable_values is None and recording_eagerly() and pullback.eligible(compiled):
        # It assigns no Variable: what they hold after the call is what its reads gave,
        # for the gradient graph when the prepared gradients cannot serve (`values_after`).
        attrs = {"graph": graph, "output_specs": compiled.output_specs, "values_after": {}}
        holder = pullback.residuals_for(compiled, inputs)
        if holder is not None:
            attrs["residuals"] = holder
        outputs = tuple(apply("XlaCall", list(inputs), attrs))
        keep_values_after(graph, attrs)
        return outputs
    attrs = call_attrs(graph, variable_values)  # as a Call's: it may keep its reads
    outputs = tuple(apply("XlaCall", list(inputs), attrs))
    keep_values_after(graph, attrs)
    return outputs[:len(graph.outputs)]


@register_gradient("XlaCall", takes_needed=True, takes_none=True,
                   direct=pullback.direct_gradient)
def _gradient(op, *grads, needed=None):
    found = pullback.gradients(op, grads, needed)
    return call_gradient(op, grads, xla_call) if found is None else found


@register_lowering("XlaCall")
def _inline(ctx, op, *inputs):
    return tuple(lower_graph(ctx, op.attrs["graph"], list(inputs)))
