"""`GradientTape`: record operations as they run, then compute gradients in reverse.

Contract:
- `with GradientTape(persistent=False, watch_accessed_variables=True) as tape:` pushes the
  tape on this thread's `context.tape_stack()`; every op applied inside, in this thread,
  reaches `_record` (ops that other threads run meanwhile never do).
- The tape records an op only when one of its inputs is watched: a tensor passed to
  `watch`, a read of a watched Variable (trainable Variables are watched when read,
  unless `watch_accessed_variables=False`), or an output of a recorded op. Only
  floating-point outputs become watched, so integer and bool values stop gradients
  without error. Ops without a gradient rule are never recorded.
- Eagerly it records eager ops. Entered while a graph is being built (inside a function
  being traced), it records the symbolic ops of that graph, and `gradient` builds
  gradient ops there; ops inside branch and loop bodies are reached through their
  `If` / `While` op, which is recorded when it consumes a watched tensor or reads a
  watched Variable inside.
- `gradient(target, sources, output_gradients=None, unconnected_gradients='none')`:
  `sources` is a tensor, a Variable or a nested structure of them and the result has its
  structure; a non-scalar target is summed; a source the target does not depend on gets
  None (or zeros with 'zero'). A non-persistent tape computes one set of gradients: a
  second call raises RuntimeError. The tape does not record its own gradient
  computation, but enclosing tapes do, which gives higher derivatives.
"""

import contextlib

from autograph_py.runtime import context, nest, registry
from autograph_py.runtime.gradients import engine
from autograph_py.runtime.tensor import SymbolicTensor, Tensor
from autograph_py.runtime.variables import Variable

_LEAVES = (Tensor, Variable)


class _Record:
    """An eager op as the tape saw it: what its gradient rule needs."""

    __slots__ = ("type", "inputs", "attrs", "outputs")

    def __init__(self, type, inputs, attrs, outputs):
        self.type = type
        self.inputs = inputs
        self.attrs = attrs
        self.outputs = outputs


class GradientTape:
    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._watched = {}            # id(tensor) -> tensor (kept alive so ids stay unique)
        self._watched_variables = {}  # id(variable) -> variable
        self._nodes = []              # recorded ops, in execution order
        self._graph = None            # the graph whose ops are recorded; None: eager ops
        self._used = False

    # --- recording ------------------------------------------------------------------

    def __enter__(self):
        self._graph = context.current_graph()
        context.tape_stack().append(self)
        return self

    def __exit__(self, *exc):
        self._stop()

    def _stop(self):
        tapes = context.tape_stack()
        for i in range(len(tapes) - 1, -1, -1):
            if tapes[i] is self:
                del tapes[i]
                return

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops run inside this block are not recorded on this tape."""
        self._stop()
        try:
            yield
        finally:
            context.tape_stack().append(self)

    def watch(self, tensor):
        """Record the ops that use `tensor` (a tensor, Variable, or nested structure)."""
        for leaf in nest.flatten(tensor):
            if isinstance(leaf, Variable):
                self._watched_variables[id(leaf)] = leaf
            elif isinstance(leaf, Tensor):
                if engine.is_differentiable(leaf):
                    self._watched[id(leaf)] = leaf
            else:
                raise TypeError(f"watch() takes tensors and Variables, got "
                                f"{type(leaf).__name__} ({leaf!r})")

    def watched_variables(self):
        return tuple(self._watched_variables.values())

    def follows(self, tensor):
        """Whether an op recorded now would carry this tape's gradients from `tensor`: a
        watched one. Changes nothing."""
        return id(tensor) in self._watched

    def follows_variable(self, var):
        """Whether an op recorded now would carry this tape's gradients from a read of
        `var`: one the tape watches or would watch when read. Changes nothing."""
        return id(var) in self._watched_variables or (
            self._watch_accessed_variables and var.trainable)

    def _watches_variable(self, var):
        if id(var) in self._watched_variables:
            return True
        if self._watch_accessed_variables and var.trainable:
            self._watched_variables[id(var)] = var
            return True
        return False

    def _record(self, opdef, inputs, attrs, outputs):
        # Runs for every op while the tape is active: the common "nothing watched" case
        # must cost little more than one loop over the inputs.
        if not outputs:
            return
        first = outputs[0]
        node = None
        if first.__class__ is SymbolicTensor:
            node = first.op
            if node.graph is not self._graph:
                return  # another graph, or a body traced for a control-flow op
            inputs = node.inputs  # after capture: tensors of this graph
        elif self._graph is not None:
            return
        if not registry.has_gradient(opdef.name):
            if opdef.name == "ReadVariable" and self._watches_variable(attrs["var"]):
                self._add(node, opdef, inputs, attrs, outputs)
            return
        watched = self._watched
        for t in inputs:
            if id(t) in watched:
                break
        else:
            # Ops holding graphs (If, While, Call) need context; they may read Variables.
            if not (opdef.needs_context and self._reads_watched_variable(attrs)):
                return
        self._add(node, opdef, inputs, attrs, outputs)

    def _reads_watched_variable(self, attrs):
        for var in engine.variables_read_inside(attrs):
            if self._watches_variable(var):
                return True
        return False

    def _add(self, node, opdef, inputs, attrs, outputs):
        watched = self._watched
        differentiable = False
        for o in outputs:
            if o.dtype.is_floating:
                watched[id(o)] = o
                differentiable = True
        if differentiable:
            self._nodes.append(node or _Record(opdef.name, inputs, attrs, outputs))

    # --- gradients ------------------------------------------------------------------

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients="none"):
        """d(sum of target)/d(source) for each source, in the structure of `sources`."""
        if self._used:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of "
                "gradients; create it with GradientTape(persistent=True) to call "
                "gradient() more than once")
        targets = [target] if isinstance(target, Tensor) else nest.flatten(target)
        if output_gradients is None:
            target_grads = [None] * len(targets)
        else:
            target_grads = nest.flatten(output_gradients)
            if len(target_grads) != len(targets):
                raise ValueError(f"output_gradients has {len(target_grads)} entries but the "
                                 f"target has {len(targets)}")
        # A plain list of tensors and Variables (the common case) is its own flat list.
        plain = type(sources) is list and all(isinstance(s, _LEAVES) for s in sources)
        flat_sources = sources if plain else nest.flatten(sources)
        recording_now = self in context.tape_stack()  # (tapes compare by identity)
        self._stop()  # the tape does not record its own gradient computation
        try:
            if self._graph is None:
                flat = engine.differentiate(self._nodes, targets, target_grads,
                                            flat_sources, unconnected_gradients)
            else:
                with self._graph.as_default():
                    flat = engine.differentiate(self._nodes, targets, target_grads,
                                                flat_sources, unconnected_gradients)
        finally:
            if not self._persistent:
                self._used = True
                self._nodes, self._watched = [], {}
            elif recording_now:
                context.tape_stack().append(self)
        return flat if plain else nest.pack_sequence_as(sources, flat)
