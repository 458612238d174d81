"""`function`: trace a Python function into a graph once per input signature, cache the
compiled graph, and run it on later calls (TensorFlow's `tf.function`, DESIGN.md §5).

Contract:
- A call binds its arguments to the signature (defaults applied) and computes their
  trace key (`trace_key`: shapes and dtypes of tensors, identity of Variables, values of
  hashable Python objects). The function's one cache (`function_cache`) returns the
  trace serving that key: one made for it, or a more general one (an `input_signature`,
  a `reduce_retracing` trace, a partial spec: `[None]` serves every length). A hit only
  feeds and runs the compiled graph, without a lock. A call of positional eager tensors
  whose key was resolved before skips binding and `call_key`: its fast key
  (`trace_key.eager_call_key`) finds the trace in one dict lookup.
- A miss traces (`tracing`): the function, converted first when `autograph=True` (as
  written, with a warning, when it cannot be converted), runs once on placeholders. A
  per-function lock makes concurrent first calls trace once; the others wait and reuse it.
- Python side effects happen while tracing only; stateful ops (`ag.print`, assignments,
  asserts) run on every call, in program order, returned or not.
- Called while another graph is being built (a function calling a function), the
  function is inlined into that graph: no separate trace, no cache entry; its
  `input_signature` is still enforced.
- Variables may be created on the first trace only; they are created eagerly with their
  initial value computed outside the graph, so their state persists across calls. Outer
  Variables are read when the graph runs.
- `input_signature` fixes the key: incompatible inputs raise ValueError. With
  `reduce_retracing=True` a shape-only retrace generalizes differing dims to None.
  More than `RETRACE_WARNING_THRESHOLD` traces of one function warn once (a
  `RetracingWarning`), naming each argument that changed and how, and the fix
  (`retrace_warnings`).
- `get_concrete_function` accepts TensorSpecs (None dims, unknown rank); a partial spec
  gets a graph at least as general, never one traced for a concrete shape.
- On a method, each instance gets its own `Function` (own cache, own variables), which
  holds the instance weakly: it lives and dies with the instance.
- `jit_compile=True` compiles each trace with XLA through JAX (`runtime/xla`, the `[xla]`
  extra; without jax it is an ImportError naming the extra); `None` follows
  `ag.config` (`set_default_jit_compile`, or the AUTOGRAPH_JIT_COMPILE environment
  variable), read when a trace is made; `False` keeps the numpy runtime.
"""
import difflib
import functools
import inspect
import threading
import types
import warnings
import weakref

import numpy as np

from autograph_py import config
from autograph_py.conversion import to_graph
from autograph_py.converters.errors import ConversionError
from autograph_py.runtime import context, nest
from autograph_py.runtime.tensor import EagerTensor, to_array
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.tracing import trace as tracing
from autograph_py.tracing.function_cache import FunctionCache
from autograph_py.tracing.retrace_warnings import RetraceLog, RetracingWarning
from autograph_py.tracing.trace_key import (
    EAGER_KEY_FUNCTIONS,
    FAST_CALLS,
    MISS,
    SymbolicArgument,
    array_of,
    call_key,
    eager_call_key,
    generalized,
    is_tensor_like,
    spec_of,
)

RETRACE_WARNING_THRESHOLD = 5
_FAST_ARITIES = len(FAST_CALLS)  # calls of more positional tensors use eager_call_key


class Function:
    """A Python function traced into graphs, one per input signature (see module doc)."""

    def __init__(self, fn, input_signature=None, autograph=True, reduce_retracing=False,
                 name=None, instance=None, jit_compile=None):
        if not callable(fn):
            raise TypeError(f"ag.function needs a function, got {type(fn).__name__} {fn!r:.60}")
        _refuse_suspending(fn)
        self._fn = fn
        # A method's instance, held weakly: the instance owns its Function, not vice versa.
        self._instance = instance
        self.input_signature = None if input_signature is None else list(input_signature)
        self.autograph = autograph
        self.reduce_retracing = reduce_retracing
        self.jit_compile = jit_compile
        if jit_compile:
            config.require_xla()  # fail at the decorator, not at the first call
        self.name = name or getattr(_unpartial(fn), "__name__", "function")
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
        self._cache = FunctionCache()
        self._fast_hits = self._cache.fast  # the hot path's dict, one attribute away
        # Held while tracing and while binding an instance; a trace may call the function
        # again (inlined), hence reentrant.
        self._lock = threading.RLock()
        self._retraces = RetraceLog(self.name, RETRACE_WARNING_THRESHOLD)
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

    def __get__(self, instance, owner=None):
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
        key = id(instance)
        with self._lock:  # two threads binding one instance must share one Function
            bound = self._instances.get(key)
            if bound is None:
                bound = Function(self._fn, self.input_signature, self.autograph,
                                 self.reduce_retracing, self.name, instance=ref,
                                 jit_compile=self.jit_compile)
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

    def __call__(self, *args, **kwargs):
        graphs, tapes = context.state.stacks  # read directly: the hot path
        fast = None
        if not kwargs and not graphs:
            # A plain call of eager tensors seen before: no binding, one C-hashed key.
            if len(args) >= _FAST_ARITIES:
                fast = eager_call_key(*args)
            elif not tapes:
                result = FAST_CALLS[len(args)](self._fast_hits, *args)
                if result is not MISS:
                    return result
                fast = EAGER_KEY_FUNCTIONS[len(args)](*args)
            else:  # the same key finds the trace; the call is an op the tapes record
                fast = EAGER_KEY_FUNCTIONS[len(args)](*args)
                run = fast is not None and self._fast_hits.get(fast[0])
                if run:
                    return run.__self__._call_recorded(list(args))
        values = self._bind(args, kwargs)
        if self.input_signature is not None:
            values = self._check_signature(values)
        if graphs:
            return self._inline(values)
        try:
            key, arrays = call_key(self._names, values)
        except SymbolicArgument:
            return self._inline(values)
        concrete = self._cache.lookup(key) or self._trace(values, key)
        # The fast key serves later calls when binding fed exactly the positional tensors
        # (not so when a default or a keyword-only parameter holds a tensor).
        if fast is not None and len(arrays) == len(fast[1]) and \
                all(a is b for a, b in zip(arrays, fast[1])):
            self._cache.remember_fast(fast[0], concrete)
        if tapes:
            return concrete._call_recorded(
                [v if isinstance(v, EagerTensor) else EagerTensor(array_of(v))
                 for v in nest.flatten(values) if is_tensor_like(v)])
        return concrete._call_flat(arrays)

    def _inline(self, values):
        args, kwargs = tracing.call_arguments(self._params, values)
        return self._traceable()(*args, **kwargs)

    def _traceable(self):
        """The function to trace: converted when `autograph=True` and possible."""
        fn = self.python_function
        if not self.autograph:
            return fn
        if getattr(_unpartial(fn), "__ag_do_not_convert__", False):
            # As TensorFlow: traced as written (Python control flow on a symbolic tensor
            # then raises, saying why).
            return _as_written(fn, "it is marked ag.do_not_convert")
        try:
            if isinstance(fn, functools.partial):  # convert what it wraps, keep its arguments
                return functools.partial(to_graph(fn.func), *fn.args, **fn.keywords)
            return to_graph(fn)
        except ConversionError as e:
            # Like converted_call: run it as written (exact on Python values; Python
            # control flow on symbolic tensors then raises the runtime's TypeError).
            warnings.warn(f"ag.function could not convert '{self.name}' and traces it as "
                          f"written: {e}", stacklevel=4)
            return _as_written(fn, e.message)

    def _check_signature(self, values):
        """The arguments as tensors of the signature's specs, or a ValueError naming the
        argument that does not fit."""
        if len(values) != len(self.input_signature):
            self._check_signature_arity(False)
        checked = []
        for param, spec, value in zip(self._params, self.input_signature, values):
            actual = _to_spec_value(value, spec)
            if actual is None or not spec.is_compatible_with(spec_of(actual)):
                got = spec_of(actual) if actual is not None else repr(value)
                raise ValueError(
                    f"Python inputs incompatible with input_signature: argument "
                    f"'{param.name}' expected {spec}, got {got}")
            checked.append(actual)
        return checked

    # --- tracing ---------------------------------------------------------------------------

    def _trace(self, values, key):
        """The trace serving `key`, made now unless another thread made it meanwhile."""
        with self._lock:
            concrete = self._cache.lookup(key)
            if concrete is not None:
                return concrete
            specs = self._trace_specs(values, key)
            self._warn_if_retracing(values)
            concrete = tracing.trace(self._traceable(), self.name, self._params, values,
                                     specs, self.trace_count + 1)
            if config.jit_compile_enabled(self.jit_compile):
                concrete.compile_with_xla()
            self.trace_count += 1
            self._cache.add((key[0], tuple(s.shape.dims for s in specs)), concrete)
            return concrete

    def _trace_specs(self, values, key):
        """Specs for the placeholders: the signature's, or relaxed ones, or the values'."""
        if self.input_signature is not None:
            return list(self.input_signature)
        specs = [spec_of(v) for v in nest.flatten(values) if is_tensor_like(v)]
        if self.reduce_retracing:
            structure, shapes = key
            relaxed = generalized(shapes, self._cache.shapes_traced(structure))
            if relaxed is not None:
                return [TensorSpec(shape, s.dtype) for shape, s in zip(relaxed, specs)]
        return specs

    def _warn_if_retracing(self, values):
        message = self._retraces.record(self._names, values)
        if message is not None:
            warnings.warn(message, RetracingWarning, stacklevel=4)  # the caller of f(...)

    def experimental_get_tracing_count(self):
        """How many times this function has been traced (TensorFlow's name)."""
        return self.trace_count

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
            key, _ = call_key(self._names, values)
        except SymbolicArgument:
            raise TypeError(f"{self.name}.get_concrete_function() takes eager tensors, "
                            "TensorSpecs and Python values, not symbolic tensors") from None
        return self._cache.lookup(key) or self._trace(values, key)

    def __repr__(self):
        return f"<ag.function {self.name}: {self.trace_count} trace(s)>"


def _unpartial(fn):
    """The function a functools.partial wraps (partials of partials are flattened)."""
    return fn.func if isinstance(fn, functools.partial) else fn


def _as_written(fn, why_not):
    """`fn` run as written with autograph on: Python control flow on a symbolic tensor
    then says why autograph did not convert it (`runtime.context.autograph_on`)."""
    @functools.wraps(fn)
    def as_written(*args, **kwargs):
        with context.autograph_on(why_not):
            return fn(*args, **kwargs)
    return as_written


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
    if is_tensor_like(value):
        return value
    if isinstance(value, TensorSpec) or hasattr(value, "_as_tensor"):  # e.g. a Variable
        return None
    try:
        return EagerTensor(to_array(value, spec.dtype))
    except (TypeError, ValueError):
        return None


def function(fn=None, *, input_signature=None, autograph=True, reduce_retracing=False,
             name=None, jit_compile=None, experimental_relax_shapes=False,
             experimental_autograph_options=None, **unknown):
    """`@ag.function`, `@ag.function(...)` or `ag.function(fn)`: see the module doc.

    TensorFlow's keywords: `experimental_relax_shapes` is the older spelling of
    `reduce_retracing`; `experimental_autograph_options` (TF's optional conversions) is
    accepted and has no effect, this converter always applies all of its conversions.
    An unknown keyword is a TypeError naming the nearest known one."""
    if unknown:
        _refuse_keywords(unknown)
    relax = reduce_retracing or experimental_relax_shapes

    def decorate(f):
        return Function(f, input_signature, autograph, relax, name, jit_compile=jit_compile)

    return decorate if fn is None else decorate(fn)


_ASYNC = inspect.CO_COROUTINE | inspect.CO_ITERABLE_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _refuse_suspending(fn):
    """A generator or async function returns a generator or coroutine before its body
    runs: there is nothing to trace, and a call would return that object (issue 25)."""
    target = inspect.unwrap(getattr(_unpartial(fn), "__func__", _unpartial(fn)))
    code = getattr(target, "__code__", None)
    if code is None or not code.co_flags & (_ASYNC | inspect.CO_GENERATOR):
        return
    kind, made = (("an async function", "a coroutine") if code.co_flags & _ASYNC
                  else ("a generator function", "a generator"))
    raise TypeError(f"{code.co_filename}:{code.co_firstlineno}: ag.function cannot trace "
                    f"{code.co_name}: it is {kind}, whose call returns {made} before its "
                    "body runs; trace a plain function that returns tensors (collect what "
                    "it yields in a list or an ag.TensorArray)")


# TensorFlow's tf.function keywords this runtime has no counterpart for, and why.
_UNSUPPORTED_TF_KEYWORDS = {
    "experimental_implements": "there is no function-implementation registry",
    "experimental_attributes": "there are no graph function attributes",
    "experimental_follow_type_hints": "arguments are keyed by value; annotate nothing",
}


def _refuse_keywords(unknown):
    keyword = sorted(unknown)[0]
    if keyword in _UNSUPPORTED_TF_KEYWORDS:
        raise TypeError(f"ag.function does not support TensorFlow's keyword '{keyword}': "
                        f"{_UNSUPPORTED_TF_KEYWORDS[keyword]}")
    known = [*inspect.signature(function).parameters][1:-1]
    nearest = difflib.get_close_matches(keyword, known, n=1, cutoff=0.5)
    hint = f"; did you mean '{nearest[0]}'?" if nearest else f"; known: {', '.join(known)}"
    raise TypeError(f"ag.function got an unexpected keyword argument '{keyword}'{hint}")
