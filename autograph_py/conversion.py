"""Converting live functions: `to_code`, `to_graph`, `converted_call`, and the directives
`convert` / `do_not_convert`.

Contract:
- A function is parsed and converted once per code object (by identity: equal code from
  another file is another function) and options; each function object (each closure)
  gets its own live copy sharing the original's cells and globals (`conversion_cache`:
  held weakly, thread-safe).
- `to_graph(fn)` returns the converted callable (bound again for methods); exceptions
  raised inside it carry notes with the user's file and line (`error_rewriting`), but a
  recursion through a staged statement, which cannot end while tracing, is one short
  error saying so (`recursion`). A call
  that stages nothing runs `fn` as written (`fast_path`: same result, the original's
  speed), every other call the converted code.
- `converted(f)`, which converted code calls for every call (`ag__.converted(f)(args)`:
  the call itself runs in the converted code's frame), converts
  the user's own functions (and methods, callable objects, partials) on the fly, sends
  builtins that meet tensors to their overloads, and calls library code as it is:
  builtins, the standard library, installed packages, numpy, and autograph_py itself;
  `warnings.warn` counts its stack level over the frames of the code as written, and
  `sys._getframe(n)` / `inspect.currentframe()` give the frames of the code as written
  (a generated closure's frame giving way to its function's: `user_stack`); a tracer or
  profiler it installs (`sys.settrace`, ...) does not see autograph_py's frames
  (`user_tracing`).
  A user function whose call stages nothing runs as written (`fast_path`), unconverted;
  with the fast path off, `converted(f)` is the conversion itself (bound for methods),
  so user code calls user code with no frame of ours between (`sys._getframe(1)`,
  tracers, `logging`'s caller). `converted_call(f, *args, **kwargs)` is the same call
  for the runtime's own calls of user functions.
- Generators, coroutines and async generators are called as they are, without a
  warning: they run as Python (no dataflow counterpart to a suspended frame), as the
  command line leaves them.
- A user function that cannot be converted otherwise is run as it is, with a warning
  that says why and where (exact on Python values; on symbolic tensors Python control
  flow then raises the runtime's clear TypeError).
"""

import contextlib
import functools
import inspect
import re
import sys
import textwrap
import types
import warnings

import gast

from autograph_py import (
    error_rewriting,
    fast_path,
    library_paths,
    loader,
    recursion,
    user_stack,
    user_tracing,
)
from autograph_py.config import fast_path_enabled
from autograph_py.conversion_cache import ConversionCache
from autograph_py.converters import naming, parser, pipeline, private_names
from autograph_py.converters.errors import ConversionError
from autograph_py.converters.transformer import ConversionContext
from autograph_py.runtime import context, nest
from autograph_py.runtime.operators import py_builtins
from autograph_py.runtime.ops.core import identity
from autograph_py.runtime.tensor import SymbolicTensor

_cache = ConversionCache()
# The decorator of a conversion in a module `autograph convert` wrote whose function's
# header reads its own name (converters/dispatching_pair.py): not the user's text.
_TWIN_BELOW = re.compile(r"\A@\w+\.twin_below\(\w+\)[ \t]*\r?\n")

# The standard `warnings.warn` (a replacement someone installs later is called as it is).
_WARN = warnings.warn
_FUNCTION_TYPES = (types.BuiltinFunctionType, types.FunctionType)
_RUNS_AS_PYTHON = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def do_not_convert(fn=None):
    """Mark `fn` so that autograph calls it as it is (also seen statically by the CLI)."""
    if fn is None:
        return do_not_convert
    target = getattr(fn, "__func__", fn)
    try:
        target.__ag_do_not_convert__ = True
    except AttributeError:
        pass
    return fn


def convert(recursive=True):
    """Decorator: `@ag.convert()` replaces a function by its converted version."""
    def decorate(fn):
        return to_graph(fn, recursive=recursive)

    return decorate


# The module converted code calls as `ag__` (autograph_py.operators). It imports this
# module for `converted_call`, so it registers itself here when imported rather than
# being imported from here: every dependency points one way.
_operators = None


def bind_operators(module):
    global _operators
    _operators = module


def is_converted(fn):
    """True for converted functions: ours, or those of a module `autograph convert` wrote
    (their globals hold `__ag__`, bound to the operators module) or one holding `to_code`'s
    output (which reads them as `ag__`), except the functions nested in the functions as
    written that the module keeps for the fast path (`fast_path.is_as_written`)."""
    if getattr(fn, "__ag_converted__", False):
        return True
    module = getattr(fn, "__globals__", {})
    return (any(module.get(name) is _operators
                for name in (naming.MODULE_OPERATORS, naming.OPERATORS))
            and not fast_path.is_as_written(getattr(fn, "__code__", None)))


def is_user_function(fn):
    """True for functions written by the user (not library, stdlib or installed code)."""
    if not isinstance(fn, types.FunctionType):
        return False
    if getattr(fn, "__ag_do_not_convert__", False) or is_converted(fn):
        return False
    filename = fn.__code__.co_filename
    if filename.startswith("<"):
        return False
    return not library_paths.is_library_file(filename)


def _as_function_def(node):
    """Wrap a parsed lambda as `def lambda__(args): return body` so it converts alike."""
    if isinstance(node, gast.Lambda):
        ret = gast.Return(value=node.body)
        fdef = gast.FunctionDef(name="lambda__", args=node.args, body=[ret],
                                decorator_list=[], returns=None, type_comment=None,
                                type_params=[])
        for n in (ret, fdef):
            gast.copy_location(n, node)
        return fdef
    return node


def _own_source_view(fn):
    """`fn` without `__wrapped__`, so the parser reads the source of `fn`'s own code.

    The parser follows `__wrapped__` (as `inspect.getsource` does): for a decorator's
    wrapper it would return the decorated function's source, which the wrapper's code
    object (its free variables, its behaviour) does not match.
    """
    if not hasattr(fn, "__wrapped__"):
        return fn
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                              fn.__closure__)


def _factory(fn, recursive):
    """(factory, converted source) for `fn`'s code: parsed and converted once."""
    return _cache.factory(fn, recursive, _convert)


def _convert(fn, recursive):
    node, filename, _ = parser.parse_function(_own_source_view(fn))
    # Compiled again outside its class: the compiler would not mangle its private names.
    qualname = getattr(fn.__code__, 'co_qualname', fn.__qualname__)  # not functools.wraps'
    ctx = ConversionContext(filename=filename, recursive=recursive,
                            class_name=private_names.class_name_of(qualname),
                            class_cell="__class__" in fn.__code__.co_freevars)
    converted = pipeline.convert_function(_as_function_def(node), ctx)
    source = pipeline.to_source(converted)
    return loader.compile_factory(fn, converted, source), source


def _converted_function(fn, recursive=True):
    """The raw converted function for `fn` (no error notes), made once per function."""
    return _cache.instance(fn, recursive, _instantiate)


def _instantiate(fn, recursive):
    factory, _ = _factory(fn, recursive)
    converted = loader.instantiate(factory, fn, _operators)
    converted.__ag_converted__ = True
    return converted


def _unwrap_callable(f):
    """(python function, bound self or None) behind a function, method or callable."""
    if isinstance(f, types.MethodType):
        return f.__func__, f.__self__
    if isinstance(f, types.FunctionType):
        return f, None
    call = getattr(type(f), "__call__", None)  # noqa: B004 -- the function itself is needed
    if isinstance(call, types.FunctionType) and not isinstance(f, type):
        return call, f
    return None, None


def to_code(fn, recursive=True):
    """The converted source of `fn`, as `to_graph` runs it; for a decorated function
    (`functools.wraps`), of the function the decorator wraps: the user's own body."""
    # A function of a module `autograph convert` wrote wraps the function as written:
    # stop at it, and print its converted copy.
    fn = inspect.unwrap(fn, stop=lambda f: hasattr(f, "__ag_converted_source__"))
    fn, _ = _unwrap_callable(getattr(fn, "__ag_converted_source__", fn))
    if fn is None:
        raise TypeError("to_code() needs a Python function or method")
    if is_converted(fn) and not getattr(fn, "__ag_converted__", False):
        # From a module `autograph convert` wrote: its source already is converted code.
        return _TWIN_BELOW.sub("", textwrap.dedent(inspect.getsource(fn)), count=1)
    return _factory(fn, recursive)[1]


def to_graph(fn, recursive=True):
    """The converted version of `fn`: Python semantics on Python values and eager tensors,
    graph ops (`cond`, `while_loop`) on symbolic tensors."""
    if is_converted(getattr(fn, "__func__", fn)):
        return fn
    if hasattr(fn, "python_function"):  # an ag.function: convert what it wraps
        return to_graph(fn.python_function, recursive)
    python_fn, bound_self = _unwrap_callable(fn)
    if python_fn is None:
        raise TypeError(f"to_graph() needs a Python function, method or callable object, got "
                        f"{type(fn).__name__}")
    converted = _converted_function(python_fn, recursive)

    def with_error_notes(*args, **kwargs):
        graph = context.current_graph()
        first_stateful = len(graph.stateful_ops) if graph is not None else 0
        # Building a graph, converted code says so: messages then suggest autograph only
        # to code that runs without it.
        building = context.autograph_on() if graph is not None else contextlib.nullcontext()
        try:
            with building:
                result = converted(*args, **kwargs)
        except Exception as e:
            endless = recursion.staged_recursion(e)
            if endless is None:
                error_rewriting.annotate(e)
                raise
        else:
            endless = None
        if endless is not None:
            raise endless  # outside the `except`: no context repeating the recursion
        if graph is not None and len(graph.stateful_ops) > first_stateful:
            result = _after_side_effects(result, graph, graph.stateful_ops[first_stateful:])
        return result

    dispatching = fast_path.dispatch(python_fn, with_error_notes)
    if bound_self is not None:
        return types.MethodType(dispatching, bound_self)
    return dispatching


def _after_side_effects(result, graph, stateful_ops):
    """`result` with every symbolic output depending on `stateful_ops`, so fetching a
    result of converted code also runs its prints, asserts and assignments, in order
    (as TensorFlow's automatic control dependencies do)."""
    def guarded(value):
        if not isinstance(value, SymbolicTensor) or value.graph is not graph:
            return value
        with graph.as_default():
            out = identity(value)
        for op in stateful_ops:
            out.op.add_control_input(op)
        return out

    return nest.map_structure(guarded, result)


def converted(f, _depth=1):
    """What converted code calls in place of `f`: `f(a, k=b)` is converted to
    `ag__.converted(f)(a, k=b)`, so the call itself runs in the converted code's own
    frame, as in the original (`sys._getframe(1)` in a library function such as
    `collections.namedtuple`, tracers, profilers, debuggers and `logging`'s caller see the
    user's frame). See the module docstring for what is converted."""
    if f is _WARN:  # its stacklevel counts the frames of the code as written
        return functools.partial(user_stack.warn, sys._getframe(_depth))
    if f is sys._getframe:  # the frames of the code as written, closures merged
        return functools.partial(user_stack.getframe, sys._getframe(_depth))
    if f is inspect.currentframe:
        return functools.partial(user_stack.getframe, sys._getframe(_depth), 0)
    if type(f) in _FUNCTION_TYPES and f in user_tracing.REPLACEMENTS:
        return user_tracing.REPLACEMENTS[f]  # tracers that do not see our frames
    if isinstance(f, (types.BuiltinFunctionType, type)):
        return py_builtins.BUILTIN_OVERLOADS.get(f, f)
    if isinstance(f, functools.partial):
        inner = converted(f.func, _depth + 1)
        return f if inner is f.func else functools.partial(inner, *f.args, **f.keywords)
    python_fn, bound_self = _unwrap_callable(f)
    if python_fn is None or python_fn.__code__.co_flags & _RUNS_AS_PYTHON:
        return f
    conversion = fast_path.twin_of(python_fn.__code__)  # a function of a converted module
    if conversion is None and not is_user_function(python_fn):
        return f
    if fast_path_enabled():
        # Each call decides: the function as written of a converted module by its own
        # first line, any other user function here.
        return f if conversion is not None else functools.partial(_call_user_function, f)
    if conversion is None:
        conversion = _conversion_or_none(python_fn, stacklevel=_depth + 2)
        if conversion is None:
            return f
    return conversion if bound_self is None else types.MethodType(conversion, bound_self)


def _call_user_function(f, /, *args, **kwargs):
    """Call the user's function `f` with the fast path on: as written when the call stages
    nothing, else converted."""
    if not fast_path.stages((*args, *kwargs.values())):
        return f(*args, **kwargs)
    python_fn, bound_self = _unwrap_callable(f)
    conversion = _conversion_or_none(python_fn, stacklevel=3)
    if conversion is None:
        return f(*args, **kwargs)
    if bound_self is not None:
        return conversion(bound_self, *args, **kwargs)
    return conversion(*args, **kwargs)


def _conversion_or_none(python_fn, stacklevel):
    """The conversion of `python_fn`, or None (with a warning naming the caller's line,
    and the function marked to run as it is from now on) when it cannot be converted."""
    try:
        return _converted_function(python_fn)
    except ConversionError as e:
        warnings.warn(f"autograph_py could not convert {python_fn.__qualname__} and runs it "
                      f"as it is: {e}", stacklevel=stacklevel)
        python_fn.__ag_do_not_convert__ = True
        return None


def converted_call(f, /, *args, **kwargs):
    """`converted(f)(*args, **kwargs)`, for the runtime's own calls of user functions (a
    dataset's `map`)."""
    return converted(f, 2)(*args, **kwargs)


__all__ = ["to_code", "to_graph", "converted", "converted_call", "convert", "do_not_convert",
           "is_converted", "is_user_function"]
