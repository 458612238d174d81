"""`function`: trace a Python function into a graph once per input signature, cache the
compiled graph, and run it on later calls (TensorFlow's `tf.function`, DESIGN.md §5).

Contract:
- Cache key: for each argument, after binding to the signature with defaults applied,
  the shape and dtype for tensors and numpy arrays and scalars (nested in lists, tuples
  and dicts too), the identity for Variables, and the value itself with its type for
  hashable Python objects (1, 1.0 and True are three keys). An unhashable Python
  argument is a TypeError that says what to do.
- A miss traces: placeholders named after the parameters stand for tensor arguments, the
  function (converted first when `autograph=True`; as written, with a warning, when it
  cannot be converted) runs once on them in a function graph, and the resulting
  `ConcreteFunction` compiles a plan. A hit only feeds and runs it.
- Python side effects happen while tracing only; stateful ops (`ag.print`, assignments,
  asserts) run on every call, in program order, returned or not.
- Called while another graph is being built (a function calling a function), the
  function is inlined into that graph: no separate trace, no cache entry.
- Variables may be created on the first trace only; they are created eagerly, so their
  state persists across calls. Outer Variables are read when the graph runs.
- `input_signature` fixes the key: incompatible inputs raise ValueError. With
  `reduce_retracing=True` a shape-only retrace generalizes differing dims to None.
  More than `RETRACE_WARNING_THRESHOLD` traces of one function warns, naming the argument
  that changed.
- `get_concrete_function` accepts TensorSpecs (None dims, unknown rank); a partial spec
  gets its own graph, never one traced for a concrete shape.
- On a method, each instance gets its own `Function` (own cache, own variables), which
  holds the instance weakly: it lives and dies with the instance.
"""
import inspect
import types
import warnings
import weakref

import numpy as np

from autograph_py.conversion import to_graph
from autograph_py.converters.errors import ConversionError
from autograph_py.runtime import context, dtypes, nest, recording, variables
from autograph_py.runtime.executor import Plan
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.recording import EAGER_CONTEXT
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor, Tensor, to_array
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.variables import Variable

RETRACE_WARNING_THRESHOLD = 5


class ConcreteFunction:
    """One traced graph: call it with the tensor arguments of its signature."""

    def __init__(self, graph, inputs, outputs, structured_outputs, input_specs):
        self.graph = graph
        self.inputs = inputs
        self.outputs = outputs
        self.structured_outputs = structured_outputs
        self.input_specs = input_specs
        self._plan = Plan(graph, outputs, graph.stateful_ops, inputs)
        # Precomputed so a call only fills the tensor slots of the output structure.
        self._flat_outputs = nest.flatten(structured_outputs)
        self._output_slots = [i for i, leaf in enumerate(self._flat_outputs)
                              if isinstance(leaf, SymbolicTensor)]
        self._single_tensor = isinstance(structured_outputs, SymbolicTensor)

    def _call_flat(self, arrays):
        values = self._plan.run(EAGER_CONTEXT, arrays)
        return self._structure(values)

    def _call_recorded(self, tensors):
        """Run as one `Call` op, so the gradient tapes recording now see the call."""
        from autograph_py.runtime.gradients.function_call import call_graph

        # The Call op's own output tensors: the tapes know those, not copies.
        return self._structure(call_graph(self.graph, tensors))

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
            if _is_tensor_like(value) and not spec.is_compatible_with(_spec_of(value)):
                raise ValueError(f"argument {i} of this concrete function must be compatible "
                                 f"with {spec}, got {_spec_of(value)}")
            array = to_array(value, spec.dtype)  # Python values: converted losslessly
            if not spec.shape.is_compatible_with(array.shape):
                raise ValueError(f"argument {i} of this concrete function must be compatible "
                                 f"with {spec}, got shape {array.shape}")
            arrays.append(array)
        return self._call_flat(arrays)

    def __repr__(self):
        return f"<ConcreteFunction inputs={self.input_specs} outputs={self.outputs}>"


def _is_tensor_like(value):
    return isinstance(value, (Tensor, np.ndarray, np.generic))


class _SymbolicArgument(Exception):
    """Raised by the key computation: a symbolic argument means the call is inlined."""


def _tensor_key(value):
    """Tensors are keyed by shape and dtype; get_concrete_function's partial specs by
    the spec itself, so they never stand in for a concrete shape."""
    spec = getattr(value, "spec", None)
    if isinstance(spec, TensorSpec) and not spec.shape.is_fully_defined():
        return spec
    if isinstance(value, EagerTensor):
        return (value._value.shape, value._dtype)
    return (value.shape, dtypes.as_dtype(value.dtype))


def _structure_key(value, path):
    if isinstance(value, (EagerTensor, np.ndarray, np.generic)):
        return _tensor_key(value)
    if isinstance(value, (list, tuple)):
        return (type(value),) + tuple(_structure_key(v, f"{path}[{i}]")
                                      for i, v in enumerate(value))
    if isinstance(value, dict):
        return (dict,) + tuple((k, _structure_key(value[k], f"{path}[{k!r}]"))
                               for k in sorted(value, key=repr))
    if isinstance(value, Variable):
        return ("Variable", id(value))  # read when the graph runs: its value is no key
    if isinstance(value, SymbolicTensor):
        raise _SymbolicArgument
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"ag.function: argument {path} is an unhashable {type(value).__name__} "
            f"({value!r:.60}); pass a tensor instead, or make it hashable (e.g. a tuple)") \
            from None
    return (type(value), value)  # 1, 1.0 and True are equal but trace different graphs


def _spec_of(value):
    spec = getattr(value, "spec", None)  # a _SpecArray from get_concrete_function
    return spec if isinstance(spec, TensorSpec) else TensorSpec.from_value(value)


class Function:
    """A Python function traced into graphs, one per input signature (see module doc)."""

    def __init__(self, fn, input_signature=None, autograph=True, reduce_retracing=False,
                 name=None, instance=None):
        if not callable(fn):
            raise TypeError(f"ag.function needs a function, got {type(fn).__name__} {fn!r:.60}")
        self._fn = fn
        # A method's instance, held weakly: the instance owns its Function, not vice versa.
        self._instance = instance
        self.input_signature = None if input_signature is None else list(input_signature)
        self.autograph = autograph
        self.reduce_retracing = reduce_retracing
        self.name = name or getattr(fn, "__name__", "function")
        self._signature = inspect.signature(fn)
        self._params = list(self._signature.parameters.values())
        if instance is not None:
            self._params = self._params[1:]
            self._signature = self._signature.replace(parameters=self._params)
        self._names = [p.name for p in self._params]
        # Fast binding for plain positional calls: the defaults to fill in, by position.
        positional = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                         for p in self._params)
        self._defaults = [p.default for p in self._params] if positional else None
        self._min_args = max((i + 1 for i, p in enumerate(self._params)
                              if p.default is p.empty), default=0)
        self._cache = {}
        self._relaxed = []   # (specs, structure, concrete) that accept more than one key
        self._last_key = None
        self._instances = {}  # id(instance) -> its Function, dropped with the instance
        self.trace_count = 0
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__name__ = self.name
        self.__wrapped__ = fn
        if self.input_signature is not None:
            self._check_signature_arity(instance is None)
            for spec in self.input_signature:
                if not isinstance(spec, TensorSpec):
                    raise TypeError(f"input_signature must be a list of TensorSpec, got "
                                    f"{spec!r}")

    def _check_signature_arity(self, maybe_method):
        expected = len(self._params)
        # Decorating `def m(self, x)` in a class body cannot know it is a method yet.
        if maybe_method and self._names[:1] == ["self"] and \
                len(self.input_signature) == expected - 1:
            return
        if len(self.input_signature) != expected:
            raise ValueError(f"input_signature has {len(self.input_signature)} specs but "
                             f"{self.name} takes {expected} arguments")

    @property
    def python_function(self):
        """The function as written (a bound method for a method's per-instance Function)."""
        if self._instance is None:
            return self._fn
        return types.MethodType(self._fn, self._instance())

    # --- methods: one Function per instance ------------------------------------------------

    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = self._instances.get(id(instance))
        return bound if bound is not None else self._bind_instance(instance)

    def _bind_instance(self, instance):
        try:
            ref = weakref.ref(instance)
        except TypeError:
            raise TypeError(
                f"ag.function method '{self.name}' keeps one cache per instance and needs "
                f"weak references to {type(instance).__name__} objects: add '__weakref__' "
                "to its __slots__") from None
        bound = Function(self._fn, self.input_signature, self.autograph,
                         self.reduce_retracing, self.name, instance=ref)
        key = id(instance)
        self._instances[key] = bound
        weakref.finalize(instance, self._instances.pop, key, None)
        return bound

    # --- calling ---------------------------------------------------------------------------

    def _bind(self, args, kwargs):
        defaults = self._defaults
        if not kwargs and defaults is not None and self._min_args <= len(args) <= len(defaults):
            return [*args, *defaults[len(args):]]
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.name}(): {e}") from None
        bound.apply_defaults()
        return [bound.arguments[name] for name in self._names]

    def _key(self, values):
        """The cache key and the arrays to feed, in one pass over the arguments."""
        key, arrays = [], []
        for name, value in zip(self._names, values):
            if type(value) is EagerTensor:  # the common case: no recursion, no flatten
                array = value._value
                key.append((array.shape, value._dtype))
                arrays.append(array)
            else:
                key.append(_structure_key(value, name))
                arrays.extend(_array(v) for v in nest.flatten(value) if _is_tensor_like(v))
        return tuple(key), arrays

    def __call__(self, *args, **kwargs):
        values = self._bind(args, kwargs)
        if context.current_graph() is not None:
            return self._inline(values)
        if self.input_signature is not None:
            values = self._check_signature(values)
        try:
            key, arrays = self._key(values)
        except _SymbolicArgument:
            return self._inline(values)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._lookup_relaxed(values) or self._trace(values, key)
            self._cache[key] = concrete
        if recording.active_tapes:
            return concrete._call_recorded(
                [v if isinstance(v, EagerTensor) else EagerTensor(_array(v))
                 for v in nest.flatten(values) if _is_tensor_like(v)])
        return concrete._call_flat(arrays)

    def _inline(self, values):
        args, kwargs = self._call_args(values)
        return self._traceable()(*args, **kwargs)

    def _traceable(self):
        """The function to trace: converted when `autograph=True` and possible."""
        fn = self.python_function
        if not self.autograph:
            return fn
        try:
            return to_graph(fn)
        except ConversionError as e:
            # Like converted_call: run it as written (exact on Python values; Python
            # control flow on symbolic tensors then raises the runtime's TypeError).
            warnings.warn(f"ag.function could not convert '{self.name}' and traces it as "
                          f"written: {e}", stacklevel=4)
            return fn

    def _call_args(self, values):
        args, kwargs = [], {}
        for param, value in zip(self._params, values):
            if param.kind == param.VAR_POSITIONAL:
                args.extend(value)
            elif param.kind == param.VAR_KEYWORD:
                kwargs.update(value)
            elif param.kind == param.KEYWORD_ONLY:
                kwargs[param.name] = value
            else:
                args.append(value)
        return args, kwargs

    def _check_signature(self, values):
        if len(values) != len(self.input_signature):
            self._check_signature_arity(False)
        checked = []
        for param, spec, value in zip(self._params, self.input_signature, values):
            actual = _to_spec_value(value, spec)
            if actual is None or not spec.is_compatible_with(actual):
                got = TensorSpec.from_value(actual) if actual is not None else repr(value)
                raise ValueError(
                    f"Python inputs incompatible with input_signature: argument "
                    f"'{param.name}' expected {spec}, got {got}")
            checked.append(actual)
        return checked

    def _lookup_relaxed(self, values):
        if not self._relaxed:
            return None
        leaves = nest.flatten(values)
        for specs, structure, concrete in self._relaxed:
            if _matches(specs, structure, values, leaves):
                return concrete
        return None

    # --- tracing ---------------------------------------------------------------------------

    def _trace_specs(self, values):
        """Specs for the placeholders: the signature's, or relaxed ones, or the values'."""
        leaves = [v for v in nest.flatten(values) if _is_tensor_like(v)]
        if self.input_signature is not None:
            return list(self.input_signature)
        specs = [_spec_of(v) for v in leaves]
        if self.reduce_retracing:
            earlier = [specs for specs, _, _ in self._relaxed]
            earlier += [c.input_specs for c in self._cache.values()]
            for old_specs in earlier:
                if len(old_specs) == len(specs) and all(
                        a.dtype is b.dtype and a.shape.rank == b.shape.rank
                        for a, b in zip(old_specs, specs)):
                    return [a.most_specific_compatible(b) for a, b in zip(old_specs, specs)]
        return specs

    def _trace(self, values, key):
        specs = self._trace_specs(values)
        self._warn_if_retracing(key)
        graph = FuncGraph(self.name, None)
        graph.lift_variables = True
        placeholders = []
        names = iter(self._placeholder_names(values))
        spec_iter = iter(specs)

        def placeholder_for(value):
            if not _is_tensor_like(value):
                return value
            spec = next(spec_iter)
            t = graph.add_input(next(names), spec.shape, spec.dtype)
            placeholders.append(t)
            return t

        hook = self._variable_creation_guard()
        variables.creation_hooks.append(hook)
        try:
            with graph.as_default():
                call_values = [nest.map_structure(placeholder_for, v) for v in values]
                args, kwargs = self._call_args(call_values)
                result = self._traceable()(*args, **kwargs)
                structured = nest.map_structure(lambda leaf: _output_leaf(graph, leaf), result)
        finally:
            variables.creation_hooks.remove(hook)
        outputs = [t for t in nest.flatten(structured) if isinstance(t, SymbolicTensor)]
        graph.outputs = outputs
        self.trace_count += 1
        concrete = ConcreteFunction(graph, placeholders, outputs, structured, specs)
        if self.reduce_retracing or self.input_signature is not None:
            self._relaxed.append((specs, _python_structure(values), concrete))
        return concrete

    def _placeholder_names(self, values):
        for param, value in zip(self._params, values):
            leaves = [v for v in nest.flatten(value) if _is_tensor_like(v)]
            if len(leaves) == 1 and not nest.is_nested(value):
                yield param.name
            else:
                for i in range(len(leaves)):
                    yield f"{param.name}_{i}"

    def _variable_creation_guard(self):
        traced_before = self.trace_count > 0

        def guard(var):
            if traced_before:
                raise ValueError(
                    f"ag.function '{self.name}' tried to create a Variable on a later trace "
                    f"(trace #{self.trace_count + 1}); create variables on the first call "
                    "only, e.g. in __init__ or behind `if self.v is None:`")

        return guard

    def _warn_if_retracing(self, key):
        previous, self._last_key = self._last_key, key
        if self.trace_count < RETRACE_WARNING_THRESHOLD or previous is None:
            return
        changed = [name for name, a, b in zip(self._names, previous, key) if a != b]
        warnings.warn(
            f"ag.function '{self.name}' has been traced {self.trace_count + 1} times; "
            f"argument(s) {', '.join(changed) or '(structure)'} changed since the last trace. "
            "Pass tensors instead of Python values, use input_signature, or "
            "reduce_retracing=True.", stacklevel=4)  # the caller of f(...)

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (values or TensorSpecs; none at all
        with an input_signature), traced now unless cached."""
        if not args and not kwargs and self.input_signature is not None:
            args = tuple(self.input_signature)
        values = self._bind(args, kwargs)
        values = [nest.map_structure(_spec_placeholder_value, v) for v in values]
        if self.input_signature is not None:
            values = self._check_signature(values)
        try:
            key, _ = self._key(values)
        except _SymbolicArgument:
            raise TypeError(f"{self.name}.get_concrete_function() takes eager tensors, "
                            "TensorSpecs and Python values, not symbolic tensors") from None
        concrete = self._cache.get(key)
        if concrete is None and self.input_signature is not None:
            concrete = self._lookup_relaxed(values)  # the signature's one graph, if traced
        if concrete is None:
            concrete = self._cache[key] = self._trace(values, key)
            if not all(s.shape.is_fully_defined() for s in concrete.input_specs) and \
                    not (self.reduce_retracing or self.input_signature is not None):
                self._relaxed.append((concrete.input_specs, _python_structure(values),
                                      concrete))
        return concrete

    def __repr__(self):
        return f"<ag.function {self.name}: {self.trace_count} trace(s)>"


def _array(value):
    return value._value if isinstance(value, EagerTensor) else np.asarray(value)


def _spec_placeholder_value(value):
    """A zero array standing for a TensorSpec (for get_concrete_function)."""
    if isinstance(value, TensorSpec):
        shape = [1 if d is None else d for d in value.shape.dims or ()]
        return _SpecArray(np.zeros(shape, value.dtype.np_dtype), value)
    return value


class _SpecArray(np.ndarray):
    """A zero array that remembers the (possibly partial) spec it stands for."""

    def __new__(cls, array, spec):
        obj = np.asarray(array).view(cls)
        obj.spec = spec
        return obj


def _to_spec_value(value, spec):
    if isinstance(value, (EagerTensor, np.ndarray, np.generic)):
        return value
    if isinstance(value, Variable) or isinstance(value, TensorSpec):
        return None
    try:
        return EagerTensor(to_array(value, spec.dtype))
    except (TypeError, ValueError):
        return None


def _python_structure(values):
    """The arguments with tensors blanked out, keyed like the cache (so 1 is not 1.0)."""
    return tuple(_structure_key(nest.map_structure(
        lambda v: None if _is_tensor_like(v) else v, value), "") for value in values)


def _matches(specs, structure, values, leaves):
    tensors = [v for v in leaves if _is_tensor_like(v)]
    if len(tensors) != len(specs):
        return False
    if structure is not None and _python_structure(values) != structure:
        return False
    return all(s.is_compatible_with(_spec_of(t)) for s, t in zip(specs, tensors))


def _output_leaf(graph, leaf):
    if isinstance(leaf, Tensor):
        return graph.capture(leaf)
    if hasattr(leaf, "_as_tensor"):  # a Variable (read at run time) or a staged TensorList
        return graph.capture(leaf._as_tensor())
    return leaf


def _eager(value):
    if isinstance(value, EagerTensor):
        return value  # a recorded Call's own output: the tapes know that one, not a copy
    return EagerTensor(value if isinstance(value, np.ndarray) else np.asarray(value))


def function(fn=None, *, input_signature=None, autograph=True, reduce_retracing=False,
             name=None):
    """`@ag.function`, `@ag.function(...)` or `ag.function(fn)`: see the module doc."""
    def decorate(f):
        return Function(f, input_signature, autograph, reduce_retracing, name)

    return decorate if fn is None else decorate(fn)
