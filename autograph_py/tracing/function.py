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
- Variables may be created on the first trace only (TensorFlow's rule); they are created
  eagerly with their initial value computed outside the graph, so their state persists
  across calls. A first trace that created Variables is thrown away and the function
  traced again, refusing any Variable: a function that creates one on every trace (whose
  graph would keep one Variable where Python makes a new one per call) is refused at its
  first call, naming the Variable and the line. Outer Variables are read when the graph
  runs.
- `ag.config.run_functions_eagerly(True)`: while on, a call made while no graph is being
  built runs the Python function as written (not converted, nothing traced or checked),
  as TensorFlow's `tf.function` does.
- `experimental_follow_type_hints=True` (no `input_signature`): an argument of a parameter
  annotated `ag.Tensor` is converted to a tensor before keying, so Python numbers of one
  type share one trace.
- `input_signature` fixes the key: Python values and numpy arrays are converted to its
  dtypes when exact or when only float precision is lost (float64 to float32, as
  TensorFlow converts numpy arrays); tensors keep theirs. Incompatible inputs raise
  ValueError, saying why a numpy value does not convert. With
  `reduce_retracing=True` a shape-only retrace generalizes differing dims to None.
  More than `RETRACE_WARNING_THRESHOLD` traces of one function warn once (a
  `RetracingWarning`), naming each argument that changed and how, and the fix
  (`retrace_warnings`).
- `concrete_functions()` lists the traces (the signature's made first), oldest first.
- `get_concrete_function` accepts TensorSpecs (None dims, unknown rank); a partial spec
  gets a graph at least as general, never one traced for a concrete shape.
- On a method, each instance gets its own `Function` (own cache, own variables), which
  holds the instance weakly: it lives and dies with the instance. `instance.method` is a
  `BoundFunction` holding the instance strongly, as a bound method does, so a method of a
  temporary object (`Model().call(x)`) works.
- `jit_compile=True` compiles each trace with XLA through JAX (`runtime/xla`, the `[xla]`
  extra; without jax it is an ImportError naming the extra); `None` follows
  `ag.config` (`set_default_jit_compile`, or the AUTOGRAPH_JIT_COMPILE environment
  variable), read when a trace is made; `False` keeps the numpy runtime.
"""
import difflib
import functools
import inspect
import operator
import threading
import types
import warnings
import weakref

import numpy as np

from autograph_py import config
from autograph_py.conversion import to_graph
from autograph_py.converters.errors import ConversionError
from autograph_py.runtime import context, nest
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import EagerTensor, Tensor, to_array
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
                 name=None, instance=None, jit_compile=None, follow_type_hints=False):
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
        self.follow_type_hints = follow_type_hints
        # Indices of the parameters annotated ag.Tensor, whose arguments become tensors.
        self._tensor_hints = (_tensor_parameters(fn, self._names)
                              if follow_type_hints and input_signature is None else ())
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
        if bound is None:
            bound = self._bind_instance(instance)
        method = _new_bound(BoundFunction)  # no __init__: the hot path of a method call
        method.__self__ = instance
        method.__func__ = bound
        return method

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
                                 jit_compile=self.jit_compile,
                                 follow_type_hints=self.follow_type_hints)
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
        if config._run_functions_eagerly and not graphs:
            return self.python_function(*args, **kwargs)  # as TensorFlow: as written
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
        if self._tensor_hints:
            values = self._follow_type_hints(values)
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
            try:
                actual = _to_spec_value(value, spec)
            except (TypeError, ValueError) as e:
                raise ValueError(
                    f"Python inputs incompatible with input_signature: argument "
                    f"'{param.name}' expected {spec}, got {_describe(value)}: {e}") from None
            if actual is None or not spec.is_compatible_with(spec_of(actual)):
                got = spec_of(actual) if actual is not None else repr(value)
                raise ValueError(
                    f"Python inputs incompatible with input_signature: argument "
                    f"'{param.name}' expected {spec}, got {got}")
            checked.append(actual)
        return checked

    def _follow_type_hints(self, values):
        """The arguments with those of parameters annotated `ag.Tensor` made tensors
        (TensorFlow's `experimental_follow_type_hints`)."""
        values = list(values)
        for index in self._tensor_hints:
            param, value = self._params[index], values[index]
            if param.kind == param.VAR_POSITIONAL:
                values[index] = tuple(_hinted_tensor(param.name, v) for v in value)
            elif param.kind == param.VAR_KEYWORD:
                values[index] = {k: _hinted_tensor(f"{param.name}[{k!r}]", v)
                                 for k, v in value.items()}
            else:
                values[index] = _hinted_tensor(param.name, value)
        return values

    # --- tracing ---------------------------------------------------------------------------

    def _trace(self, values, key):
        """The trace serving `key`, made now unless another thread made it meanwhile."""
        with self._lock:
            concrete = self._cache.lookup(key)
            if concrete is not None:
                return concrete
            specs = self._trace_specs(values, key)
            self._warn_if_retracing(values)
            concrete = self._trace_graph(values, specs).compile()
            if config.jit_compile_enabled(self.jit_compile):
                concrete.compile_with_xla()
            self._cache.add((key[0], tuple(s.shape.dims for s in specs)), concrete)
            return concrete

    def _trace_graph(self, values, specs):
        """A trace for these arguments, under TensorFlow's rule for Variables: only the
        function's first trace may create them. A first trace that did is thrown away and
        the function traced again, refusing any: a function that creates Variables on
        every trace, not only on its first, is refused now, rather than keep one Variable
        across calls where Python makes a new one per call."""
        fn = self._traceable()

        def run(on_variable):
            traced = tracing.trace(fn, self.name, self._params, values, specs, on_variable)
            self.trace_count += 1
            return traced

        if self.trace_count:
            return run(tracing.refuse_variables(
                self.name, f"on a later trace (trace #{self.trace_count + 1}); create "
                "variables on the first call only, e.g. in __init__ or behind "
                "`if self.v is None:`"))
        created = []
        traced = run(lambda variable, location: created.append(variable))
        if not created:
            return traced
        return run(tracing.refuse_variables(self.name, _CREATED_ON_EVERY_TRACE))

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

    def concrete_functions(self):
        """The ConcreteFunctions traced so far, oldest first; with an input_signature,
        its trace (made now if it was not). What `ag.saved_model.save` writes."""
        if self.input_signature is not None:
            self.get_concrete_function()
        return self._cache.concrete_functions()

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
    """`value` as a tensor of `spec`'s dtype, the caller checking the result against the
    spec: a tensor keeps its dtype (a mismatch is refused, as in TensorFlow). Python and
    numpy values are converted (as TensorFlow converts numpy arrays) when that is exact
    or only loses float precision (float64 to float32), never when a fraction, an integer
    out of range or a finite value overflowing to inf would be lost: for a numpy value a
    TypeError says why. None when the value cannot be a tensor (a TensorSpec, a Variable,
    a Python value that does not convert)."""
    if isinstance(value, (Tensor, _SpecArray)):
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        return EagerTensor(to_array(value, spec.dtype))
    if isinstance(value, TensorSpec) or hasattr(value, "_as_tensor"):  # e.g. a Variable
        return None
    try:
        return EagerTensor(to_array(value, spec.dtype))
    except (TypeError, ValueError):
        return None


def _describe(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return f"a numpy {value.dtype} {'array' if isinstance(value, np.ndarray) else 'scalar'}"
    return repr(value)


def _hinted_tensor(name, value):
    """The argument of a parameter annotated `ag.Tensor`, as a tensor: Python values and
    numpy arrays are converted; tensors, Variables, composites and None stay."""
    if value is None or isinstance(value, Tensor) or hasattr(value, "_as_tensor") or \
            nest.is_composite(value):
        return value
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"argument {name} is annotated ag.Tensor (experimental_follow_type_"
                        f"hints=True) but {value!r:.60} does not convert to a tensor: {e}") \
            from None


def _tensor_parameters(fn, names):
    """The indices of the parameters (of `names`) annotated `ag.Tensor`. String
    annotations (`from __future__ import annotations`) are evaluated in the function's
    module; one that does not evaluate is no `ag.Tensor`."""
    try:
        parameters = inspect.signature(fn, eval_str=True).parameters
    except Exception:  # noqa: BLE001 -- any annotation's own error: read them unevaluated
        parameters = inspect.signature(fn).parameters
    return tuple(i for i, name in enumerate(names) if parameters[name].annotation is Tensor)


class BoundFunction:
    """`instance.method` for an `ag.function` method: the instance's own Function (its
    cache and traces), bound to the instance as Python binds a method: the instance lives
    at least as long as this object, so `Model().call(x)` works. Attributes (`trace_count`,
    `get_concrete_function`, `python_function`, ...) are the Function's."""

    __slots__ = ("__self__", "__func__")
    # A call is the Function's call: the property's getter is C code, so no Python frame
    # of ours is added (`type(m).__call__` resolves it, then calls the Function).
    __call__ = property(operator.attrgetter("__func__"))

    def __getattr__(self, name):
        if name in BoundFunction.__slots__:  # not set (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.__func__, name)

    @property
    def __doc__(self):
        return self.__func__.__doc__

    def __eq__(self, other):
        return isinstance(other, BoundFunction) and other.__func__ is self.__func__

    def __hash__(self):
        return hash(self.__func__)

    def __repr__(self):
        return f"<bound ag.function {self.__func__.name} of {self.__self__!r:.80}>"


_new_bound = object.__new__

_CREATED_ON_EVERY_TRACE = (
    "on its second trace, made because the first created Variables, to check that later "
    "traces create none (as TensorFlow's tf.function does): it creates Variables every time "
    "it is traced. Its graph would keep one Variable across calls where Python makes a new "
    "one on each call, so a traced function may create Variables on its first trace only "
    "(TensorFlow: 'tf.function only supports singleton tf.Variables created on the first "
    "call'). Create it outside the function (in __init__, or once before the first call), "
    "or on the first trace only, behind `if self.v is None:`")


def function(fn=None, *, input_signature=None, autograph=True, reduce_retracing=False,
             name=None, jit_compile=None, experimental_relax_shapes=False,
             experimental_autograph_options=None, experimental_follow_type_hints=None,
             **unknown):
    """`@ag.function`, `@ag.function(...)` or `ag.function(fn)`: see the module doc.

    TensorFlow's keywords: `experimental_relax_shapes` is the older spelling of
    `reduce_retracing`; `experimental_autograph_options` (TF's optional conversions) is
    accepted and has no effect, this converter always applies all of its conversions;
    `experimental_follow_type_hints=True` makes the arguments of parameters annotated
    `ag.Tensor` tensors (ignored with an `input_signature`, as in TensorFlow).
    An unknown keyword is a TypeError naming the nearest known one."""
    if unknown:
        _refuse_keywords(unknown)
    relax = reduce_retracing or experimental_relax_shapes

    def decorate(f):
        return Function(f, input_signature, autograph, relax, name, jit_compile=jit_compile,
                        follow_type_hints=bool(experimental_follow_type_hints))

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
