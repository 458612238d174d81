"""`ConcreteFunction`: one traced graph of an `ag.function`, compiled, ready to run.

Contract:
- Made by `tracing.trace`: `graph` (a FuncGraph), `inputs` (its placeholders),
  `outputs` (its output tensors), `structured_outputs` (what the Python function
  returned, tensors symbolic, Python values as they were) and `input_specs`;
  `parameters` pairs each parameter (`inspect.Parameter`) with the value the trace bound
  to it, its tensors the placeholders (empty for a graph made otherwise).
- The executor plan is compiled once, here; a call feeds arrays and rebuilds the returned
  structure with fresh eager tensors. `__call__(*tensors)` checks each tensor against its
  spec (Python and numpy values are converted to the spec's dtype when exact, numpy
  floats also when they only lose precision: float64 to float32, as TensorFlow does).
- A call made while gradient tapes record runs as one `Call` op, so the tapes can
  differentiate through it (`Function` calls `_call_recorded` itself; `__call__` does it
  when a tape records).
- `code` is the Python source the executor generated for the plan (what really runs).
- `compile_with_xla()` (jit_compile) replaces the plan by one `jax.jit` function of the
  graph (`runtime/xla`): calls feed it, and a recorded call is one `XlaCall` op whose
  gradient is compiled too. `code` still shows the numpy plan of the same graph.
"""

import numpy as np

from autograph_py.runtime import context, nest
from autograph_py.runtime.dtypes import as_dtype
from autograph_py.runtime.gradients.function_call import call_graph
from autograph_py.runtime.plan.executor import Plan
from autograph_py.runtime.recording import EAGER_CONTEXT
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor, Tensor, immutable, to_array
from autograph_py.runtime.xla import require_jax
from autograph_py.tracing.trace_key import spec_of


class ConcreteFunction:
    """One traced graph: call it with the tensor arguments of its signature."""

    def __init__(self, graph, inputs, outputs, structured_outputs, input_specs, parameters=()):
        self.graph = graph
        self.parameters = parameters
        self.inputs = inputs
        self.outputs = outputs
        self.structured_outputs = structured_outputs
        self.input_specs = input_specs
        self._plan = Plan(graph, outputs, graph.stateful_ops, inputs)
        self._run = self._plan.function  # what Plan.run calls, one frame less
        self._call_op = call_graph
        self.jit_compile = False
        # Precomputed so a call only fills the tensor slots of the output structure.
        self._flat_outputs = nest.flatten(structured_outputs)
        self._output_slots = [i for i, leaf in enumerate(self._flat_outputs)
                              if isinstance(leaf, SymbolicTensor)]
        self._single_tensor = isinstance(structured_outputs, SymbolicTensor)
        # (the one output's numpy dtype and DType: a result of that dtype, the rule, takes
        # it without a lookup)
        self._single_dtype = (structured_outputs.dtype.np_dtype, structured_outputs.dtype) \
            if self._single_tensor else (None, None)

    @property
    def code(self):
        """The Python source of the function the executor compiled this graph's plan to."""
        return self._plan.code

    def compile_with_xla(self):
        """Run this graph compiled by XLA from now on (lowered now: an op that cannot be
        compiled raises here, at trace time)."""
        require_jax()  # the ImportError naming the [xla] extra, before importing jax
        # Imported here: runtime/xla/call imports jax, an optional extra.
        from autograph_py.runtime.xla.call import compiled_graph, xla_call  # noqa: PLC0415

        compiled = compiled_graph(self.graph, self.inputs, self.outputs)
        self._run = compiled.function
        self._call_op = xla_call
        self.jit_compile = True

    def _call_flat(self, arrays):
        values = self._run(EAGER_CONTEXT, arrays)
        if self._single_tensor:  # the common case, _eager inlined: a cache hit's hot path
            value = values[0]
            if type(value) is not np.ndarray:
                if isinstance(value, EagerTensor):
                    return value
                value = _asarray(value)
            np_dtype, dtype = self._single_dtype
            if value.dtype is not np_dtype:
                dtype = _DTYPES.get(value.dtype) or _dtype_of(value)
            return EagerTensor(value, dtype)
        return self._structure(values)

    def _call_recorded(self, tensors):
        """Run as one `Call` (or `XlaCall`) op, so the gradient tapes recording now see
        the call."""
        # The op's own output tensors: the tapes know those, not copies.
        return self._structure(self._call_op(self.graph, tensors))

    def _structure(self, values):
        if self._single_tensor:
            return _eager(values[0])
        flat = list(self._flat_outputs)
        for slot, value in zip(self._output_slots, values):
            flat[slot] = _eager(value)
        if not nest.is_nested(self.structured_outputs):
            return flat[0]
        return nest.pack_sequence_as(self.structured_outputs, flat)

    def __call__(self, *tensors):
        if len(tensors) != len(self.inputs):
            raise TypeError(f"this concrete function takes {len(self.inputs)} tensor "
                            f"arguments, got {len(tensors)}")
        arrays = []
        for i, (value, spec) in enumerate(zip(tensors, self.input_specs)):
            if isinstance(value, Tensor) and not spec.is_compatible_with(spec_of(value)):
                raise ValueError(f"argument {i} of this concrete function must be compatible "
                                 f"with {spec}, got {spec_of(value)}")
            # Python and numpy values are converted: exactly, or a float losing precision
            # only (float64 to float32, as TensorFlow converts numpy arrays).
            array = to_array(value, spec.dtype)
            if array is value:  # the caller's numpy array (see trace_key.array_of)
                array = immutable(array)
            if not spec.shape.is_compatible_with(array.shape):
                raise ValueError(f"argument {i} of this concrete function must be compatible "
                                 f"with {spec}, got shape {array.shape}")
            arrays.append(array)
        if context.state.tapes:
            return self._call_recorded([v if isinstance(v, EagerTensor) else EagerTensor(a)
                                        for v, a in zip(tensors, arrays)])
        return self._call_flat(arrays)

    def __repr__(self):
        return f"<ConcreteFunction inputs={self.input_specs} outputs={self.outputs}>"


def _eager(value):
    if type(value) is not np.ndarray:
        if isinstance(value, EagerTensor):
            return value  # a recorded Call's own output: the tapes know that one, not a copy
        value = _asarray(value)
    dtype = _DTYPES.get(value.dtype)
    return EagerTensor(value, dtype if dtype is not None else _dtype_of(value))


def _dtype_of(array):
    # DType by numpy dtype from a memo: as_dtype's general path costs 0.5 µs a result.
    dtype = _DTYPES[array.dtype] = as_dtype(array.dtype)
    return dtype


_DTYPES = {}  # numpy dtype -> DType, filled as results come
_asarray = np.asarray  # a global, not an attribute lookup per result
