"""`CompiledGraph`: a traced function graph as one `jax.jit` function that takes and
returns numpy arrays, with the function's effects.

Contract:
- `CompiledGraph(graph, inputs, outputs)` lowers the graph when it is made (so an op
  that cannot be compiled fails at trace time, naming the op and the user's line) when
  the input shapes are fully known, else at the first call (`lower_now=False`: at the
  first call, for a replica's program that only lowers inside `shard_map`).
- `run(arrays)` calls the jitted function, under 64-bit JAX when the graph has a 64-bit
  value (our dtypes include int64 and float64): it passes the current values of the
  Variables the graph touches (read from the Variables at each call) and a PRNG seed
  when it draws random numbers; it writes the new values of the Variables it assigns
  back and returns the outputs as numpy arrays.
  A failed check (Assert, integer division by zero, index out of range) raises its
  error, naming the op and the user's line, and leaves the Variables unchanged.
- Printing is ordered (`jax.debug.callback`); a call that prints waits for its output,
  so text appears before the call returns, as with the numpy runtime.
- Compiled once per input shapes and dtypes (jax.jit's own cache), which the function's
  trace cache already fixes except for None dims of an input_signature.
- Arrays (our tensors' values, immutable) are transferred to JAX once: the JAX copy is
  kept while the array lives (`DEVICE_COPIES`; a small array is copied with the call the
  first time, kept from the second), and outputs and Variable values are zero-copy views
  of the JAX results, registered there when large, so a result fed to the next compiled
  call is not copied again.
"""

import contextlib
import weakref

import jax
import numpy as np
from autograph_py.runtime.errors import InvalidArgumentError, format_location, op_error
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import random_ops
from autograph_py.runtime.tensor import read_only
from autograph_py.runtime.xla import (
    rules,  # noqa: F401  (the table's rows)
)
from autograph_py.runtime.xla.lowering import LoweringContext, lower_graph
from autograph_py.runtime.xla.state_rules import AssertMessages

# Dtypes JAX only keeps with 64-bit mode on (else it narrows them to 32 bits).
_WIDE_DTYPES = frozenset({"int64", "uint64", "float64", "complex128"})
# Ops whose lowering computes in 64 bits on integer inputs (math_rules: an integer mean
# sums in int64, as the kernel, so a large sum does not wrap).
_WIDE_INSIDE = frozenset({"Mean"})
_VARIABLE_OPS = ("ReadVariable", "AssignVariable", "AssignAddVariable", "AssignSubVariable")
_RANDOM_OPS = ("RandomUniform", "RandomNormal")


# Results up to this size are not remembered: a weak reference and a registry entry
# cost more (about 1.5 µs) than transferring them again.
_REMEMBERED_BYTES = 4096
# The copy of a small array: a jitted identity, about 15 µs a call where jax.device_put
# costs about 80 (jax 0.10.2, CPU); it compiles once per shape and dtype, so large
# arrays (many shapes, and a copy that costs more than the call) use device_put.
_transfer = jax.jit(lambda array: array)


class DeviceCopies:
    """The JAX array holding each live numpy array's data, by identity.

    Every array fed to a compiled call is immutable: a tensor's own array (tensors never
    change), a read-only copy of the caller's array (`trace_key.array_of`), a fresh one
    made from a Python value, or a Variable's read-only value. So a copy made for an
    array stays valid while the array lives."""

    def __init__(self):
        # id(array) -> [weak reference to it, its JAX array, or None while it is small
        # and seen once]
        self._by_id = {}

    def to_device(self, array):
        entry = self._by_id.get(id(array))
        if entry is not None and entry[0]() is array:
            if entry[1] is None:  # fed again: worth a copy of its own
                entry[1] = _transfer(array)
            return entry[1]
        if not isinstance(array, np.ndarray):
            return array
        if array.nbytes > _REMEMBERED_BYTES:
            device = jax.device_put(array)
            self.remember(array, device)
            return device
        # Small: transferred with the call (jax.jit copies a numpy argument in
        # microseconds), unless it comes back (a tensor called with again).
        self.remember(array, None)
        return array

    def remember(self, array, device):
        key = id(array)
        self._by_id[key] = [weakref.ref(array, lambda _, key=key: self._by_id.pop(key, None)),
                            device]

    def to_host(self, device):
        """A read-only numpy view of `device`'s data, remembered as its copy unless it is
        small (transferring a few bytes again costs less than the bookkeeping)."""
        array = np.asarray(device)
        # A zero-copy view (CPU): feeding it back is free.
        if not array.flags.writeable and array.nbytes > _REMEMBERED_BYTES:
            self.remember(array, device)
        return array


DEVICE_COPIES = DeviceCopies()


def _walk(graph):
    """Every op of `graph` and of the graphs in its ops' attrs, recursively."""
    for op in graph.get_operations():
        yield op
        for value in op.attrs.values():
            if isinstance(value, Graph):
                yield from _walk(value)


class CompiledGraph:
    def __init__(self, graph, inputs, outputs, lower_now=True):
        self.graph, self.inputs, self.outputs = graph, list(inputs), list(outputs)
        ops = list(_walk(graph))
        found, assigned = {}, set()
        for op in ops:
            if op.type in _VARIABLE_OPS:
                found.setdefault(id(op.attrs["var"]), op.attrs["var"])
                if op.type != "ReadVariable":
                    assigned.add(id(op.attrs["var"]))
        self.variables = list(found.values())
        # Only the Variables the graph assigns come back (read-only ones are not copied).
        self.assigned = [i for i, v in enumerate(self.variables) if id(v) in assigned]
        self.random = any(op.type in _RANDOM_OPS for op in ops)
        self.prints = any(op.type == "PrintV2" for op in ops)
        # Whether the lowered program has a lax.while_loop, which JAX's reverse mode
        # cannot differentiate: known once lowered, else judged from the loops there are.
        self.while_loops = any(
            op.type == "WhileGrad" or op.type == "While" and
            op.attrs["maximum_iterations"] is None for op in ops)
        self._lowered_once = False
        self._messages = AssertMessages()
        # What an XlaCall op of the graph states as its outputs (call.py); the defaults
        # (the graph's own outputs) are what xla_call runs.
        self.output_specs = [(t.shape, t.dtype) for t in graph.outputs]
        self.recorded = None  # its RecordedCall once a tape records it (pullback.py)
        self._checks = {}  # input shapes -> the checks of their trace, by error code - 1
        self._jitted = jax.jit(self.lowered)
        # 64-bit mode only for graphs with 64-bit values: switching it costs each call
        # several microseconds, and 32-bit graphs compile to the same program without it.
        dtypes = [t.dtype.name for op in ops for t in op.outputs]
        dtypes += [t.dtype.name for t in self.inputs] + [v.dtype.name for v in self.variables]
        self._wide = bool(_WIDE_DTYPES.intersection(dtypes)) or any(
            op.type in _WIDE_INSIDE and op.inputs and op.inputs[0].dtype.is_integer
            for op in ops)
        effects = bool(self.variables) or self.random or self.prints or self._wide
        # `function(ctx, arrays)`: run, with the calling convention of the numpy
        # executor's plan functions (the context is not needed: Variables live on
        # themselves), so a ConcreteFunction calls it without a frame in between.
        self.function = self._run if effects else self._run_pure
        # (Not for one replica's program: its collectives lower only inside shard_map.)
        if lower_now and all(p.shape.is_fully_defined() for p in self.inputs):
            specs = [jax.ShapeDtypeStruct(tuple(p.shape.dims), p.dtype.np_dtype)
                     for p in self.inputs]
            with self.precision():
                self._jitted.lower(specs, [var._value for var in self.variables],
                                   np.uint32(0) if self.random else None)

    def precision(self):
        return jax.enable_x64(True) if self._wide else contextlib.nullcontext()

    def lowered(self, args, values, seed):
        key = None if seed is None else jax.random.PRNGKey(seed)
        ctx = LoweringContext(self.variables, values, key)
        ctx.assert_messages = self._messages
        outputs = lower_graph(ctx, self.graph, list(args), self.outputs)
        values, _, error = ctx.state()
        values = [values[i] for i in self.assigned]
        # (Shapes lowered later may take other paths: any of them counts.)
        self.while_loops = ctx.while_loops or self._lowered_once and self.while_loops
        self._lowered_once = True
        self._checks[tuple(np.shape(a) for a in args)] = ctx.checks
        return outputs, values, (error if ctx.checks else None)

    def run(self, arrays, ctx=None):
        """The outputs on `arrays`; the Variables' values are what `ctx`'s reads give
        (their own without one)."""
        return self.function(ctx, arrays)

    def _run(self, ctx, arrays):
        seed = None
        if self.random:
            seed = np.uint32(random_ops.seed_for_compiled_call())
        if self._wide:  # device_put too: without 64-bit mode it narrows float64 arrays
            with jax.enable_x64(True):
                outputs, values, error = self._call(arrays, seed, ctx)
        else:
            outputs, values, error = self._call(arrays, seed, ctx)
        if self.prints:
            jax.effects_barrier()
        if error is not None:
            self.raise_failed_check(error, arrays)
        to_host = DEVICE_COPIES.to_host
        for i, value in zip(self.assigned, values):
            self.variables[i]._value = read_only(to_host(value))
        return [to_host(o) for o in outputs]

    def _run_pure(self, _ctx, arrays):
        """`_run` of the common case, a 32-bit graph without Variables, random numbers or
        prints: a cache hit's microseconds are mostly this path's Python."""
        to_device = DEVICE_COPIES.to_device
        outputs, _, error = self._jitted([to_device(a) for a in arrays], [], None)
        if error is not None:
            self.raise_failed_check(error, arrays)
        to_host = DEVICE_COPIES.to_host
        return [to_host(o) for o in outputs]

    def _call(self, arrays, seed, ctx):
        to_device = DEVICE_COPIES.to_device
        # The Variables' values, or what the context's reads give (a gradient's).
        values = [v._value for v in self.variables] if ctx is None else \
            [ctx.read_variable(v) for v in self.variables]
        return self._jitted([to_device(a) for a in arrays], [to_device(v) for v in values],
                            seed)

    def raise_failed_check(self, error, arrays, shapes=None):
        """Raise the failed check `error` names, if any, of the trace for `arrays` (or
        for inputs of `shapes`: one replica's, runtime/xla/replicas.py)."""
        code = np.asarray(error)  # int() of a JAX scalar costs about 15 µs more
        if code:
            raise self._failure(int(code), shapes or tuple(np.shape(a) for a in arrays))

    def checks_for(self, shapes):
        """The checks of the trace for inputs of `shapes`: (op, error type, message) by
        error code - 1."""
        return self._checks[tuple(shapes)]

    def _failure(self, code, shapes):
        """The error of check `code` (1-based) of the trace for input `shapes`, as the numpy
        kernel would raise it."""
        op, error_type, message = self._checks[shapes][code - 1]
        if not issubclass(error_type, InvalidArgumentError):
            return op_error(op, error_type(message))
        jax.effects_barrier()  # an Assert's data (a bad gather index) come by a callback
        message = self._messages.take(code) or message
        return error_type(f"{message}\n  (op '{op.name}' ({op.type}) created at "
                          f"{format_location(op.location)})")
