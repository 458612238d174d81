"""A compiled call recorded by a gradient tape: its forward call also prepares the
backward, so the tape's gradient needs at most one more compiled call and never
recomputes the forward (the gradient graph of `function_call` does).

Contract:
- `xla_call` asks `residuals_for(compiled, inputs)` for a `Residuals()` holder to put in
  the attrs of an `XlaCall` made while tapes record eagerly
  (`function_call.recording_eagerly`) when the graph only computes values and JAX can
  differentiate it (`eligible`: it assigns no
  Variable, prints nothing, draws no random numbers, and lowers to no `lax.while_loop`,
  a loop whose trip count is not known when compiling: those keep the gradient graph,
  whose `WhileGrad` keeps the iterations' values). The holder names the gradients to
  prepare: those of the floating inputs and Variables read that a recording tape follows
  (`GradientTape.follows`, `follows_variable`) and the gradient graph reaches (elsewhere None, as
  `call_gradient` answers). None when there are none: the call then runs unrecorded.
- The op's kernel runs `run_recorded(compiled, arrays, holder)`: the outputs, as
  `CompiledGraph.run` returns them, and in the holder what the gradient needs, alive as
  long as the tape's record of the op:
  - a graph with one floating output, a scalar (a loss): its gradients themselves,
    computed in the same compiled call (`jax.vjp` with a cotangent of 1). The output is
    a scalar, so the gradient for any cotangent is this one times the cotangent.
  - otherwise `jax.vjp`'s residuals, and the gradient is one compiled backward call.
  Each set of prepared gradients has its own jitted forward: a gradient nobody follows
  (an unwatched input's, typically the batch's) is never computed.
- `gradients(op, grads, needed)` answers as `function_call.call_gradient` does (one
  gradient per input, None for the others, then one per Variable read inside) for the
  gradients the engine says it uses (`needed`, see `registry.GradientDef.takes_needed`).
  One that was not prepared (TensorFlow also gives the gradient of a source the tape did
  not watch when a recorded op consumed it) costs one more compiled call, from the
  arrays the forward read. None when the gradient must be built from our ops: while
  tapes record it or a graph is being built (higher derivatives), or when the holder
  is empty.
"""

import jax
import jax.numpy as jnp
import numpy as np
from autograph_py.runtime import context
from autograph_py.runtime.gradients.function_call import gradient_slots, inner_variables_of
from autograph_py.runtime.tensor import EagerTensor
from autograph_py.runtime.xla.compiled import DEVICE_COPIES


class Residuals:
    """What a recorded call keeps for the tape's gradient (see the module docstring)."""

    __slots__ = ("slots", "call", "kind", "payload", "args", "values")

    def __init__(self, slots):
        self.slots = slots  # the gradients to prepare (see RecordedCall)
        self.call = None


def eligible(compiled):
    return not (compiled.assigned or compiled.random or compiled.prints or
                compiled.while_loops)


def residuals_for(compiled, inputs):
    """A holder for a call of `compiled` on `inputs` (tensors) that the recording tapes
    will keep, or None when no tape follows a gradient of it."""
    recorded = compiled.recorded
    if recorded is None:
        recorded = compiled.recorded = RecordedCall(compiled)
    slots = recorded.followed(inputs, context.state.tapes)
    return Residuals(slots) if slots else None


def run_recorded(compiled, arrays, holder):
    return compiled.recorded.forward(arrays, holder)


def gradients(op, grads, needed=None):
    holder = op.attrs.get("residuals")
    if holder is None or holder.call is None or context.state.tapes or \
            context.state.graphs:
        return None
    return holder.call.backward(op, holder, grads, needed)


def direct_gradient(op, target, sources):
    """The gradients of `target`, the call's scalar output, with respect to `sources`
    when the call prepared every one of them (`registry.GradientDef.direct`): the
    tape's answer without the engine's bookkeeping. None otherwise."""
    holder = op.attrs.get("residuals")
    if holder is None or holder.call is None or holder.kind != "gradient" or \
            context.state.tapes or context.state.graphs:
        return None
    return holder.call.direct(op, holder, target, sources)


class RecordedCall:
    """The recorded calls of one CompiledGraph. Its gradient slots are its differentiable
    inputs, then its differentiable Variables; `wanted` are the slots the gradient graph
    reaches, and a holder's `slots` the subset prepared (ascending)."""

    def __init__(self, compiled):
        self.compiled = compiled
        graph = compiled.graph
        self._diff_inputs = [i for i, p in enumerate(compiled.inputs) if p.dtype.is_floating]
        self._diff_vars = [i for i, v in enumerate(compiled.variables) if v.dtype.is_floating]
        self._diff_outputs = [i for i, t in enumerate(compiled.outputs) if t.dtype.is_floating]
        # Positions in call_gradient's answer: differentiable inputs, then the Variables
        # read inside (their order, not the compiled graph's).
        num_diff = len(self._diff_inputs)
        position = {id(v): num_diff + k for k, v in enumerate(inner_variables_of(graph))}
        positions = list(range(num_diff)) + [
            position.get(id(compiled.variables[i])) for i in self._diff_vars]
        flows = set(gradient_slots(graph))
        self.wanted = tuple(k for k, p in enumerate(positions) if p in flows)
        self._scalar = len(self._diff_outputs) == 1 and \
            compiled.outputs[self._diff_outputs[0]].shape.rank == 0
        self._dtypes = [compiled.inputs[i].dtype for i in self._diff_inputs] + [
            compiled.variables[i].dtype for i in self._diff_vars]
        # Where each slot's gradient goes in call_gradient's answer: after one per input,
        # one per Variable read inside.
        num_inputs = len(compiled.inputs)
        self._answer_size = num_inputs + len(position)
        self._answer_index = [self._diff_inputs[k] if k < num_diff else
                              None if p is None else num_inputs + p - num_diff
                              for k, p in enumerate(positions)]
        self._forwards = {}  # slots -> the jitted forward preparing their gradients
        self._payload_places = {}  # slots -> {id(Variable): its gradient's payload index}
        self._backward = jax.jit(lambda pullback, cotangents: pullback(cotangents))

    def followed(self, inputs, tapes):
        """The wanted slots whose input or Variable one of `tapes` follows."""
        split, variables = len(self._diff_inputs), self.compiled.variables
        slots = []
        for k in self.wanted:
            if k < split:
                tensor = inputs[self._diff_inputs[k]]
                for tape in tapes:
                    if tape.follows(tensor):
                        slots.append(k)
                        break
            else:
                var = variables[self._diff_vars[k - split]]
                for tape in tapes:
                    if tape.follows_variable(var):
                        slots.append(k)
                        break
        return tuple(slots)

    def _needed_slots(self, needed):
        """The wanted slots of the gradients the engine uses (`needed`: one bool per input
        of the op, then one per Variable read inside)."""
        if needed is None:
            return self.wanted
        index = self._answer_index
        return tuple(k for k in self.wanted if needed[index[k]])

    def _forward_for(self, slots):
        forward = self._forwards.get(slots)
        if forward is None:
            forward = self._forwards[slots] = jax.jit(
                lambda args, values: self._forward_fn(slots, args, values))
        return forward

    def _forward_fn(self, slots, args, values):
        split = len(self._diff_inputs)
        places = [self._diff_inputs[k] if k < split else self._diff_vars[k - split]
                  for k in slots]

        def outputs_of(primals):
            args_, values_ = list(args), list(values)
            for k, place, primal in zip(slots, places, primals):
                (args_ if k < split else values_)[place] = primal
            outputs, _, error = self.compiled.lowered(args_, values_, None)
            outputs = [jnp.asarray(o) for o in outputs]
            return [outputs[i] for i in self._diff_outputs], (outputs, error)

        primals = [args[p] if k < split else values[p] for k, p in zip(slots, places)]
        diff_outputs, pullback, (outputs, error) = jax.vjp(outputs_of, primals, has_aux=True)
        if self._scalar:
            return outputs, error, pullback([jnp.ones_like(diff_outputs[0])])[0]
        return outputs, error, pullback

    def forward(self, arrays, holder):
        """Run the call on `arrays`, filling `holder`."""
        compiled = self.compiled
        to_device = DEVICE_COPIES.to_device
        with compiled.precision():  # 64-bit arrays stay 64-bit on the device too
            args = [to_device(a) for a in arrays]
            values = [to_device(v._value) for v in compiled.variables]
            outputs, error, payload = self._forward_for(holder.slots)(args, values)
        if error is not None:
            compiled.raise_failed_check(error, arrays)
        holder.call, holder.kind, holder.payload = \
            self, "gradient" if self._scalar else "pullback", payload
        holder.args, holder.values = args, values  # for a gradient not prepared
        to_host = DEVICE_COPIES.to_host
        return [to_host(o) for o in outputs]

    def direct(self, op, holder, target, sources):
        if target is not op.outputs[self._diff_outputs[0]]:
            return None
        where = self._payload_places.get(holder.slots)  # id(Variable) -> payload index
        if where is None:
            split, variables = len(self._diff_inputs), self.compiled.variables
            where = self._payload_places[holder.slots] = {
                id(variables[self._diff_vars[k - split]]): i
                for i, k in enumerate(holder.slots) if k >= split}
        inputs = [(op.inputs[self._diff_inputs[k]], i)
                  for i, k in enumerate(holder.slots) if k < len(self._diff_inputs)]
        if inputs:
            where = dict(where)
            for tensor, i in inputs:
                if id(tensor) in where:  # a tensor passed twice: its gradients add up
                    return None
                where[id(tensor)] = i
        places = [where.get(id(s)) for s in sources]
        if None in places:
            return None  # a source the call prepared nothing for: the engine says what
        to_host, payload, dtypes, slots = (DEVICE_COPIES.to_host, holder.payload,
                                           self._dtypes, holder.slots)
        return [EagerTensor(to_host(payload[i]), dtypes[slots[i]]) for i in places]

    def backward(self, op, holder, grads, needed=None):
        slots, payload = holder.slots, holder.payload
        missing = [k for k in self._needed_slots(needed) if k not in slots]
        if missing:  # one more compiled call, from what the forward read
            slots = tuple(sorted(set(slots).union(missing)))
            with self.compiled.precision():
                payload = self._forward_for(slots)(holder.args, holder.values)[2]
        to_host = DEVICE_COPIES.to_host
        if holder.kind == "gradient":
            scale = grads[self._diff_outputs[0]]._value  # a scalar: the gradient is linear in it
            found = [to_host(g) for g in payload]
            if scale != 1:
                found = [np.asarray(g * scale, g.dtype) for g in found]
        else:
            with self.compiled.precision():  # zeros of a 64-bit output are 64-bit
                cotangents = [jnp.zeros(op.outputs[i].shape, op.outputs[i].dtype.np_dtype)
                              if grads[i] is None else
                              DEVICE_COPIES.to_device(grads[i]._value)
                              for i in self._diff_outputs]
                found = [to_host(g) for g in self._backward(payload, cotangents)[0]]
        answer = [None] * self._answer_size
        index, dtypes = self._answer_index, self._dtypes
        for k, g in zip(slots, found):
            answer[index[k]] = EagerTensor(g, dtypes[k])
        return answer
