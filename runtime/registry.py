"""The op registry: one row per op, and `apply`, the single way an op is executed.

Contract:
- `register(OpDef(...))` adds a row: the op's name, its numpy `kernel`, its static
  `infer` rule (shape and dtype of each output from the inputs' specs), and flags. A row
  never changes once registered.
- Gradients have a table of their own beside it, one `GradientDef` row per op, keyed by
  op type: `@register_gradient("Op", ...)` (called by `runtime/gradients/*_grad.py`)
  adds the rule and its flags, `gradient("Op")` finds it (None: not differentiable).
  Neither table reads the other, so the order in which ops and rules are registered
  never matters.
- `apply(name, inputs, attrs)` takes tensors (already converted): eagerly it runs the
  kernel now and records the op on active gradient tapes; in graph mode (a default graph,
  or a symbolic input) it adds an `Operation` whose outputs carry the inferred shapes.
- Kernel convention: `kernel(*arrays, **attrs)`, or `kernel(ctx, *arrays, **attrs)` when
  `needs_context` (stateful ops: variables, print, control flow). A kernel returns one
  array, or a tuple of arrays when the op has several outputs.
- Infer convention: `infer(*specs, **attrs)` with specs having `.shape` (TensorShape) and
  `.dtype`; returns `(shape, dtype)` or a list of them. It raises `ValueError`/`TypeError`
  for invalid inputs; `apply` adds the op name, input shapes and dtypes to the message.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from autograph_py.runtime import context, dtypes, recording
from autograph_py.runtime.errors import OpError
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor

_OPS = {}
_GRADIENTS = {}


@dataclass(frozen=True)
class OpDef:
    name: str
    kernel: Callable
    infer: Callable
    num_outputs: int = 1  # -1: as many as `infer` returns
    stateful: bool = False
    needs_context: bool = False
    # A nested graph (branch, loop body) that reads an output re-creates the op from its
    # inputs instead of capturing the output: it runs only where the read happens.
    recreated_where_read: bool = False
    # Each output element is a function of the inputs' elements at its (broadcast)
    # position alone, with no error that depends on other elements' values: a loop
    # runs it on all its iterations' values at once (runtime/plan/vectorize/).
    elementwise: bool = False


@dataclass(frozen=True)
class GradientDef:
    """The reverse-mode rule of one op: `rule(op, *output_grads)` returns one gradient per
    input (None where none flows); `op` has `.inputs`, `.outputs` and `.attrs` (an
    Operation, or a tape record)."""

    op_type: str
    rule: Callable
    # The rule also takes `needed=`: one bool per input, then one per Variable read
    # inside, True where the caller uses that gradient (TensorFlow's "unneeded
    # gradients"), so a rule whose gradients cost work can skip the unused ones.
    takes_needed: bool = False
    # The rule of a multi-output op takes None for an output no gradient reaches
    # (else it gets zeros, made for it).
    takes_none: bool = False
    # `direct(node, target, sources)`: one gradient per source of `target` (one of the
    # node's outputs, its own gradient all ones), when the op prepared them while it ran
    # and can give them at once; None to leave it to the engine. The engine asks when a
    # tape holds this node alone (a compiled call under a tape, typically).
    direct: Callable | None = None


def register(opdef):
    if opdef.name in _OPS:
        raise ValueError(f"op {opdef.name!r} is registered twice")
    _OPS[opdef.name] = opdef
    return opdef


def register_gradient(op_type, *, takes_needed=False, takes_none=False, direct=None):
    """Decorator: `@register_gradient("Add")` makes the function the gradient rule of op
    `Add` (see `GradientDef` for the rule's signature and the flags)."""

    def decorate(rule):
        if op_type in _GRADIENTS:
            raise ValueError(f"a gradient of op {op_type!r} is registered twice")
        _GRADIENTS[op_type] = GradientDef(op_type, rule, takes_needed, takes_none, direct)
        return rule

    return decorate


def gradient(op_type):
    """The `GradientDef` of op `op_type`, or None when the op is not differentiable."""
    return _GRADIENTS.get(op_type)


has_gradient = _GRADIENTS.__contains__  # a C call: tapes ask it for every recorded op


def get(name):
    try:
        return _OPS[name]
    except KeyError:
        raise KeyError(f"no op named {name!r} is registered") from None


def registered_names():
    return sorted(_OPS)


def gradient_names():
    return sorted(_GRADIENTS)


def describe_inputs(inputs):
    return ", ".join(f"shape={t.shape} dtype={t.dtype.name}" for t in inputs) or "no inputs"


def apply(name, inputs, attrs=None, op_name=None):
    """Run op `name` on `inputs` (tensors) now, or add it to the graph being built."""
    opdef = _OPS[name]
    state = context.state  # this thread's graphs and tapes
    graphs = state.graphs
    if graphs:
        return _add_op(graphs[-1], opdef, inputs, attrs, op_name)
    arrays = []
    for t in inputs:
        if isinstance(t, SymbolicTensor):
            return _add_op(t.graph, opdef, inputs, attrs, op_name)
        arrays.append(t._value)
    # Eager, the common case, kept short (benchmarks/function_overhead.py).
    try:
        if opdef.needs_context:
            result = opdef.kernel(recording.EAGER_CONTEXT, *arrays, **(attrs or {}))
        elif attrs:
            result = opdef.kernel(*arrays, **attrs)
        else:
            result = opdef.kernel(*arrays)
    except (ValueError, TypeError, IndexError, ZeroDivisionError, FloatingPointError) as e:
        if isinstance(e, OpError):  # from an op inside a graph the kernel ran: named there
            raise
        raise type(e)(f"{opdef.name}: {e} (inputs: {describe_inputs(inputs)})") from None
    if opdef.num_outputs == 1:
        if type(result) is not np.ndarray:  # ufuncs give numpy scalars for 0-d inputs
            result = np.asarray(result)
        output = EagerTensor(result, _DTYPES.get(result.dtype) or _dtype(result))
        if state.tapes:
            recording.record(opdef, inputs, attrs or {}, (output,))
        return output
    outputs = tuple(map(_eager_tensor, result))
    if state.tapes:
        recording.record(opdef, inputs, attrs or {}, outputs)
    return outputs


def _add_op(graph, opdef, inputs, attrs, op_name):
    attrs = attrs or {}
    outputs = graph.create_op(opdef, inputs, attrs, name=op_name).outputs
    if context.state.tapes:
        recording.record(opdef, inputs, attrs, outputs)
    return outputs[0] if opdef.num_outputs == 1 else outputs


_DTYPES = {}  # numpy dtype -> DType, filled as results come


def _dtype(array):
    dtype = _DTYPES[array.dtype] = dtypes.as_dtype(array.dtype)
    return dtype


def _eager_tensor(result):
    array = result if type(result) is np.ndarray else np.asarray(result)
    return EagerTensor(array, _DTYPES.get(array.dtype) or _dtype(array))
