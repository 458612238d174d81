"""Gradients through `If` and `While` (graph mode), including Variables read inside.

Contract:
- `If`: the gradient is another `If` on the same predicate. Each of its branches
  recomputes its forward branch (`inline_graph`) and differentiates it, so the gradient
  flows only into the branch that ran; a capture or Variable the branch does not use
  gets zeros there.
- `While` (reverse mode): the gradient is one `WhileGrad` op. When it runs it (1) replays
  the forward loop, with the forward `While` kernel and side-effect-free copies of the
  condition and body, keeping the loop variables at the start of every iteration, then
  (2) runs the body-gradient graph once per iteration in reverse, each time mapping
  (loop variables at the start of the iteration, gradient of the body's outputs) to the
  gradient of its inputs, and summing the gradients of captured tensors and Variables
  over the iterations. The body-gradient graph recomputes the body from the saved loop
  variables and differentiates it, so nested control flow works. `WhileGrad` itself has
  no gradient: no second derivatives through a while loop.
- Both rules return, after one gradient per input, one per Variable read inside
  (`engine.inner_variables`), in that order.
"""

import numpy as np
from autograph_py.runtime import context, registry
from autograph_py.runtime.control_flow import cond
from autograph_py.runtime.gradients.engine import inner_variables, is_differentiable
from autograph_py.runtime.gradients.inline import inline_graph, pure_copy
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.ops.creation_ops import zeros, zeros_like
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _zeros_for(source):
    """Zeros shaped like `source` (a tensor or a Variable)."""
    if source.shape.is_fully_defined():
        return zeros(source.shape, source.dtype)
    return zeros_like(source)


# --- If ---------------------------------------------------------------------------------------


def _if_grad(op, *grads):
    pred, captured = op.inputs[0], op.inputs[1:]
    variables = list(inner_variables(op))
    seeds = [(i, g) for i, g in enumerate(grads) if g is not None]
    wanted = [j for j, t in enumerate(captured) if is_differentiable(t)]
    none = (None,) * (len(op.inputs) + len(variables))
    if not seeds or not (wanted or variables):
        return none

    def branch_gradient(graph, indices):
        def compute():
            here = context.current_graph()
            inner = [here.capture(captured[i]) for i in indices]
            outputs = inline_graph(graph, inner)
            position = {j: k for k, j in enumerate(indices)}
            sources = [inner[position[j]] for j in wanted if j in position]
            found = iter(gradients([outputs[i] for i, _ in seeds], sources + variables,
                                   grad_ys=[g for _, g in seeds]))
            # Every branch returns one gradient per wanted capture and Variable.
            result = [next(found) if j in position else None for j in wanted]
            result += [next(found) for _ in variables]
            return [_zeros_for(s) if g is None else g
                    for s, g in zip([captured[j] for j in wanted] + variables, result)]

        return compute

    attrs = op.attrs
    results = cond(pred, branch_gradient(attrs["then_graph"], attrs["then_indices"]),
                   branch_gradient(attrs["else_graph"], attrs["else_indices"]))
    input_grads = [None] * len(op.inputs)
    for j, g in zip(wanted, results):
        input_grads[1 + j] = g
    return tuple(input_grads) + tuple(results[len(wanted):])


# --- While ------------------------------------------------------------------------------------


def _body_gradient_graph(body, diff_vars, diff_extra, variables, outer):
    """The graph (loop vars, body captures, output grads) -> gradients of one iteration,
    and the slots those gradients fill among (diff_vars, diff_extra, variables); a slot
    no gradient reaches is left out (the kernel uses zeros)."""
    graph = FuncGraph("while_body_grad", outer)
    num_vars = len(body.outputs)
    with graph.as_default():
        xs = [graph.add_input(p.op.name, p.shape, p.dtype) for p in body.inputs]
        grad_ys = [graph.add_input(f"grad_{i}", body.outputs[i].shape, body.outputs[i].dtype)
                   for i in diff_vars]
        outputs = inline_graph(body, xs)
        sources = [xs[i] for i in diff_vars] + [xs[num_vars + k] for k in diff_extra]
        found = gradients([outputs[i] for i in diff_vars], sources + variables,
                          grad_ys=grad_ys)
    slots = [s for s, g in enumerate(found) if g is not None]
    graph.outputs = [found[s] for s in slots]
    return graph, tuple(slots)


class _KeepHistory:
    """A run context that notes the loop variables every time the body is run."""

    def __init__(self, ctx, body, num_vars):
        self._ctx, self._body, self._num_vars = ctx, body, num_vars
        self.history = []

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def run_subgraph(self, graph, inputs):
        if graph is self._body:
            self.history.append(inputs[:self._num_vars])
        return self._ctx.run_subgraph(graph, inputs)


def _add(total, value):
    return value if total is None else total + value


def _while_grad_kernel(ctx, *inputs, cond_graph, body_graph, num_vars, cond_indices,
                       body_indices, maximum_iterations, forward_specs, grad_graph, grad_slots,
                       diff_vars, diff_extra, variables, output_specs):
    num_forward = len(inputs) - len(diff_vars)
    captured = inputs[num_vars:num_forward]
    body_extra = [captured[i] for i in body_indices]

    recorder = _KeepHistory(ctx, body_graph, num_vars)
    registry.get("While").kernel(
        recorder, *inputs[:num_forward], cond_graph=cond_graph, body_graph=body_graph,
        num_vars=num_vars, cond_indices=cond_indices, body_indices=body_indices,
        maximum_iterations=maximum_iterations, output_specs=forward_specs)

    grads = list(inputs[num_forward:])
    num_slots = len(diff_vars) + len(diff_extra) + len(variables)
    totals = [None] * (num_slots - len(diff_vars))
    for loop_vars in reversed(recorder.history):
        step = [None] * num_slots
        for slot, value in zip(grad_slots, ctx.run_subgraph(
                grad_graph, list(loop_vars) + body_extra + grads)):
            step[slot] = value
        grads = [np.zeros_like(loop_vars[i]) if g is None else g
                 for i, g in zip(diff_vars, step)]
        totals = [_add(t, g) if g is not None else t
                  for t, g in zip(totals, step[len(diff_vars):])]
    likes = [body_extra[k] for k in diff_extra] + [ctx.read_variable(v) for v in variables]
    totals = [np.zeros_like(like) if t is None else t for t, like in zip(totals, likes)]
    return tuple(grads + totals)


register(OpDef("WhileGrad", _while_grad_kernel, lambda *inputs, output_specs, **_: list(
    output_specs), num_outputs=-1, needs_context=True))


@register_gradient("WhileGrad")
def _no_second_derivative(op, *grads):
    # Without a rule a gradient reaching it would stop silently (None, or a sum missing
    # this path): a wrong second derivative. Say so instead.
    raise NotImplementedError(
        "second derivatives through a staged `while` or `for` loop are not supported: "
        f"{op.name} ({op.type}), the first derivative of a loop, has no gradient")


def _while_grad(op, *grads):
    attrs = op.attrs
    num_vars = attrs["num_vars"]
    initial, captured = op.inputs[:num_vars], op.inputs[num_vars:]
    body_extra = [captured[i] for i in attrs["body_indices"]]
    variables = list(inner_variables(op))
    diff_vars = [i for i in range(num_vars) if is_differentiable(initial[i])]
    diff_extra = [k for k, t in enumerate(body_extra) if is_differentiable(t)]
    here = context.current_graph()

    grad_graph, grad_slots = _body_gradient_graph(attrs["body_graph"], diff_vars, diff_extra,
                                                  variables, here)
    grad_ys = [zeros_like(op.outputs[i]) if grads[i] is None else grads[i] for i in diff_vars]
    wrt = [initial[i] for i in diff_vars] + [body_extra[k] for k in diff_extra] + variables
    forward = {key: attrs[key] for key in (
        "num_vars", "cond_indices", "body_indices", "maximum_iterations")}
    results = apply("WhileGrad", list(op.inputs) + grad_ys, {
        **forward, "forward_specs": attrs["output_specs"],
        "cond_graph": pure_copy(attrs["cond_graph"]), "body_graph": pure_copy(attrs["body_graph"]),
        "grad_graph": grad_graph, "grad_slots": grad_slots,
        "diff_vars": diff_vars, "diff_extra": diff_extra, "variables": variables,
        "output_specs": [(t.shape, t.dtype) for t in wrt]})

    input_grads = [None] * len(op.inputs)
    for i, g in zip(diff_vars, results):
        input_grads[i] = g
    for k, g in zip(diff_extra, results[len(diff_vars):]):
        input_grads[num_vars + attrs["body_indices"][k]] = g
    return tuple(input_grads) + tuple(results[len(diff_vars) + len(diff_extra):])


# A branch with stateful ops makes a StatefulIf (control_flow.py): the same rule.
register_gradient("If")(_if_grad)
register_gradient("StatefulIf")(_if_grad)
register_gradient("While")(_while_grad)
