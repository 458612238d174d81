"""Trace keys: what a call of an `ag.function` must share with a trace to reuse its graph.

Contract:
- `call_key(names, values)` returns `(key, arrays)` for arguments bound to the signature:
  `key = (structure, shapes)`. `structure` holds, per argument, the dtype of each tensor
  leaf (eager tensors, numpy arrays and scalars, nested in lists, tuples and dicts), the
  identity of a Variable, for a composite (a dataset, a TensorArray) its type, its
  `_trace_signature()` and its tensors' entries, and `(type, value)` for any other
  hashable Python value (1, 1.0 and True are three keys); `shapes` holds the shape of
  each tensor leaf in order (a tuple of dims, None for an unknown dim; None for an
  unknown rank: the partial specs of `get_concrete_function`). `arrays` are the values
  to feed, in the same order.
- A symbolic argument raises `SymbolicArgument` (the call is inlined, never keyed); an
  unhashable Python argument is a TypeError naming it and saying what to do.
- `eager_call_key(*args)`: for positional arguments that are all eager tensors, `(fast_key,
  arrays)`: `fast_key` determines `call_key`'s key (the DTypes by identity: they are
  singletons) and hashes in C (a DType's `__hash__` is Python code). The cache hit of a
  plain call is looked up by it; anything else returns None. `EAGER_KEY_FUNCTIONS[n]` is
  the same function for n arguments, generated without a loop.
- `FAST_CALLS[n](hits, *args)`: the cache hit of n eager tensors in one frame: looks the
  fast key up in `hits` (fast key -> a trace's `_call_flat`) and runs it, or returns `MISS`.
- `is_subtype(call_shapes, trace_shapes)`: a trace serves a call when every trace shape
  is the call's or more general (a `[None]` trace serves every length; a partial call
  shape is served only by a trace at least as general, never by a concrete one).
"""

import numpy as np

from autograph_py.runtime import dtypes, nest
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor, Tensor, immutable
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.variables import Variable


class SymbolicArgument(Exception):
    """A symbolic tensor among the arguments: the call is inlined into the graph being
    built."""


def is_tensor_like(value):
    return isinstance(value, (Tensor, np.ndarray, np.generic))


def array_of(value):
    if isinstance(value, EagerTensor):
        return value._value
    if isinstance(value, np.ndarray):
        # The caller's array: a result may be a view of what is fed, so feed a read-only
        # copy unless nothing can write to it (tensors are immutable).
        return immutable(value)
    return np.asarray(value)  # a fresh array nobody else holds


def spec_of(value):
    """The TensorSpec of a tensor leaf (a partial one for get_concrete_function's specs)."""
    spec = getattr(value, "spec", None)
    return spec if isinstance(spec, TensorSpec) else TensorSpec.from_value(value)


def call_key(names, values):
    """The key of a call and the arrays to feed, in one pass over the arguments."""
    structure, shapes, arrays = [], [], []
    for name, value in zip(names, values):
        if type(value) is EagerTensor:  # the common case: no recursion, no flatten
            array = value._value
            structure.append(value._dtype)
            shapes.append(array.shape)
            arrays.append(array)
        else:
            structure.append(_structure(value, name, shapes))
            arrays.extend(array_of(v) for v in nest.flatten(value) if is_tensor_like(v))
    return (tuple(structure), tuple(shapes)), arrays


def eager_call_key(*args):
    """(fast key, arrays) when every argument is an EagerTensor, else None."""
    if len(args) < len(EAGER_KEY_FUNCTIONS):
        return EAGER_KEY_FUNCTIONS[len(args)](*args)
    key, arrays = [], []
    for value in args:
        if type(value) is not EagerTensor:
            return None
        array = value._value
        key += (id(value._dtype), array.shape)
        arrays.append(array)
    return tuple(key), arrays


def _key_parts(arity):
    """The parameters, the all-eager test, the fast key and the arrays of `arity`
    arguments, as source text for the generated functions below."""
    params = [f"a{i}" for i in range(arity)]
    test = " and ".join(f"type({a}) is EagerTensor" for a in params) or "True"
    key = "".join(f"id({a}._dtype), {a}._value.shape, " for a in params)
    arrays = "".join(f"{a}._value, " for a in params)
    return params, test, key, arrays


def _eager_key_function(arity):
    """eager_call_key for `arity` arguments, without a loop (half the time for one)."""
    params, test, key, arrays = _key_parts(arity)
    source = (f"def key({', '.join(params)}):\n"
              f"    if {test}:\n"
              f"        return ({key}), [{arrays}]\n"
              f"    return None\n")
    namespace = {"EagerTensor": EagerTensor}
    exec(source, namespace)
    return namespace["key"]


# eager_call_key by number of arguments, without its dispatch (the hot path calls these)
EAGER_KEY_FUNCTIONS = tuple(_eager_key_function(arity) for arity in range(9))

MISS = object()  # what a fast call returns when it found no trace to run


def _fast_call_function(arity):
    """A cache hit in one frame: `call(hits, *args)` runs `hits[fast key](arrays)` for
    `arity` eager tensors whose fast key is in `hits`, else returns MISS."""
    params, test, key, arrays = _key_parts(arity)
    source = (f"def call(hits, {', '.join(params)}):\n"
              f"    if {test}:\n"
              f"        run = hits.get(({key}))\n"
              f"        if run is not None:\n"
              f"            return run([{arrays}])\n"
              f"    return MISS\n")
    namespace = {"EagerTensor": EagerTensor, "MISS": MISS}
    exec(source, namespace)
    return namespace["call"]


FAST_CALLS = tuple(_fast_call_function(arity) for arity in range(len(EAGER_KEY_FUNCTIONS)))


def _structure(value, path, shapes):
    """The structure key of one argument; appends its tensor leaves' shapes to `shapes`.

    A tensor leaf's entry is its bare DType: no Python value's entry is one (those are
    `(type, value)` pairs, containers start with their type)."""
    if isinstance(value, (EagerTensor, np.ndarray, np.generic)):
        spec = getattr(value, "spec", None)  # a _SpecArray: its partial shape is the key
        if isinstance(spec, TensorSpec):
            shapes.append(spec.shape.dims)
            return spec.dtype
        shapes.append(np.shape(value) if not isinstance(value, EagerTensor)
                      else value._value.shape)
        return value._dtype if isinstance(value, EagerTensor) else dtypes.as_dtype(value.dtype)
    if isinstance(value, (list, tuple)):
        return (type(value),) + tuple(_structure(v, f"{path}[{i}]", shapes)
                                      for i, v in enumerate(value))
    if isinstance(value, dict):
        # Sorted like nest.flatten, so the shapes follow the order the arrays are fed in.
        return (dict,) + tuple((k, _structure(value[k], f"{path}[{k!r}]", shapes))
                               for k in sorted(value, key=repr))
    if isinstance(value, Variable):
        return ("Variable", id(value))  # read when the graph runs: its value is no key
    if nest.is_composite(value):  # a Dataset or TensorArray: its pipeline, its tensors
        return (type(value), value._trace_signature()) + tuple(
            _structure(v, path, shapes) for v in nest.children(value))
    if isinstance(value, SymbolicTensor):
        raise SymbolicArgument
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"ag.function: argument {path} is an unhashable {type(value).__name__} "
            f"({value!r:.60}); pass a tensor instead, or make it hashable (e.g. a tuple)") \
            from None
    return (type(value), value)  # 1, 1.0 and True are equal but trace different graphs


def is_subtype(call_shapes, trace_shapes):
    """True when a trace made for `trace_shapes` accepts every call of `call_shapes`."""
    for call, trace in zip(call_shapes, trace_shapes):
        if trace is None:
            continue
        if call is None or len(call) != len(trace):
            return False
        for c, t in zip(call, trace):
            if t is not None and t != c:
                return False
    return True


def specificity(shapes):
    """How much a trace's shapes pin down (known ranks and dims): the most specific of
    several matching traces is the one that serves a call."""
    return sum(0 if s is None else 1 + sum(d is not None for d in s) for s in shapes)


def generalized(shapes, others):
    """`shapes` relaxed against an earlier trace of the same ranks (differing dims → None),
    or None when no earlier trace has those ranks (reduce_retracing)."""
    for other in others:
        if len(other) == len(shapes) and all(
                a is not None and b is not None and len(a) == len(b)
                for a, b in zip(shapes, other)):
            return tuple(tuple(x if x == y else None for x, y in zip(a, b))
                         for a, b in zip(shapes, other))
    return None
