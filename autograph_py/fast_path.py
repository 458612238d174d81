"""The fast path: a converted function whose call stages nothing runs as written.

Contract:
- `stages(values)` is true when a call with these argument values takes the converted
  path, i.e. when any of these holds: the fast path is off (`config.fast_path_enabled()`,
  the environment variable `AUTOGRAPH_FAST_PATH=0`); a graph is being built on this
  thread (inside `Graph.as_default()`, so inside every `ag.function` trace); a JAX trace
  is active on this thread (`jax.jit`, `jax.grad`, `jax.vmap`...; looked at only once jax
  is imported); or one of `values` (the arguments, not looked into) is a value a staging
  backend claims (a symbolic tensor, a JAX tracer, a staged stand-in:
  `runtime/operators/backends.py`) or a value of the runtime (an eager tensor, a
  Variable: converted code gives them TensorFlow's rules where these differ from
  Python's). Python values, numpy values, JAX arrays and the user's objects run as
  written: on them the converted function does exactly what the original does.
- `dispatch(original, converted)` is the function that runs `converted` when its call
  stages and `original` otherwise, decided once at entry. It has `original`'s signature
  (its parameters, defaults, name and qualified name: a wrong call fails as the original
  would) and metadata (`functools.update_wrapper`: docstring, `__wrapped__`, so
  `inspect.signature` works), is a plain function (a method when found on a class), and
  is marked converted (`__ag_converted__`), so `to_graph` and `converted_call` take it as
  it is. Its first test is cheap: one shared counter (no thread builds a graph), the
  flag, `jax` not imported (else a probe of its current trace), and one set lookup per
  argument's type (`backends.PLAIN`, filled here with the types found plain); only a
  call that fails it pays for `stages`.
- `converted_twin(conversion)` is the decorator `autograph convert` writes on each
  function as written (below the user's decorators; converters/dispatching_pair.py): it
  records `conversion` as the function's twin and returns the function unchanged, whose
  added first line `if (type(a) not in __ag__.plain or ...) and __ag__.stages(a, ...):
  return __ag__.conversion()(a, ...)` (`plain`, `stages_call`, `conversion`, below) hands
  a staging call over. A call that stages nothing
  runs with no frame of ours around it: warnings' stack levels, tracebacks, debuggers,
  profilers and the recursion limit see the code as written. `to_code` of the function
  prints its twin. The functions nested in the functions as written (`is_as_written(code)`)
  are the user's functions, though their globals hold the operators: `converted_call`
  converts them when they meet a staging call (a closure made on the fast path, called
  later in a graph).

Not seen: a symbolic tensor reached only through a closure, a global or a container
argument while no graph is being built (inside `with graph.as_default()` everything is
converted). The original then meets it as written: Python control flow on it raises the
runtime's TypeError saying to convert the function; `AUTOGRAPH_FAST_PATH=0` (or passing
the tensor as an argument, or calling inside the graph's `as_default()`) stages it.
"""

import functools
import inspect
import sys
import threading
import types

# As submodules: `from autograph_py import ...` would import the API first, which imports
# this module (a cycle when this module is imported first).
import autograph_py.config as config
import autograph_py.frame_names as frame_names
from autograph_py.runtime.context import (
    forget_idle_plain,
    graphs_being_built,
    idle_plain,
    remember_idle_plain,
)
from autograph_py.runtime.context import state as _thread_state
from autograph_py.runtime.operators.backends import PLAIN, backend_for, never_claims
from autograph_py.runtime.tensor import Tensor
from autograph_py.runtime.variables import Variable
from autograph_py.runtime.xla import jax_internals


def _jax_tracing_once_imported():
    """False until jax is imported; then the probe replaces this function."""
    jax = sys.modules.get("jax")
    if jax is None or not hasattr(jax, "core"):  # not while jax is being imported
        return False
    _jax_tracing[0] = jax_internals.trace_probe()
    return _jax_tracing[0]()


_jax_tracing = [_jax_tracing_once_imported]


def stages(values):
    """Whether a call of a converted function with these argument values may stage."""
    return (bool(_thread_state.graphs) or not config._fast_path
            or "jax" in sys.modules and _jax_tracing[0]() or _converted_for_any(values))


# The runtime's own values: nothing stages an eager tensor, but converted code gives it
# TensorFlow's rules where they differ from Python's (an `assert` on a tensor of two
# values is a ValueError, eagerly too: docs/limitations.md), so it takes that path.
_RUNTIME_VALUES = (Tensor, Variable)


def _converted_for_any(values):
    for value in values:
        cls = type(value)
        if cls in PLAIN:
            continue
        if issubclass(cls, _RUNTIME_VALUES) or backend_for(value) is not None:
            return True
        if never_claims(cls):
            PLAIN.add(cls)
    return False


# The dispatching function, made for each signature. `{params}` are the original's
# parameters (defaults come from its `__defaults__`), `{plain}` one test per parameter.
_TEMPLATE = '''
def make(ag__original, ag__converted, ag__stages, ag__plain, ag__building,
         ag__config, ag__modules, ag__jax_tracing, ag__type=type, ag__map=map):
    def dispatch({params}):
        if (ag__building[0] or not ag__config._fast_path
                or "jax" in ag__modules and ag__jax_tracing[0](){plain}):
            if ag__stages(({values})):
                return ag__converted({call})
        return ag__original({call})
    return dispatch
'''
_RESERVED = ("ag__",)


def _signature_parts(code):
    """(params, plain tests, values, call) of the source of a function with `code`'s
    parameters, or None when a parameter name could clash with the template's."""
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                             + bool(code.co_flags & inspect.CO_VARARGS)
                             + bool(code.co_flags & inspect.CO_VARKEYWORDS)]
    if any(name.startswith(_RESERVED) for name in names):
        return None
    positional = list(names[:code.co_argcount])
    keyword_only = names[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    rest = iter(names[code.co_argcount + code.co_kwonlyargcount:])
    star = next(rest) if code.co_flags & inspect.CO_VARARGS else None
    stars = next(rest) if code.co_flags & inspect.CO_VARKEYWORDS else None
    params, call = list(positional), list(positional)
    if code.co_posonlyargcount:
        params.insert(code.co_posonlyargcount, "/")
    if star:
        params.append(f"*{star}")
        call.append(f"*{star}")
    elif keyword_only:
        params.append("*")
    params += keyword_only
    call += [f"{name}={name}" for name in keyword_only]
    # The builtins the template calls go by reserved names: a parameter may be called
    # `type` or `map` (`def __exit__(self, type, value, traceback)`).
    plain = "".join(f" or ag__type({name}) not in ag__plain"
                    for name in positional + list(keyword_only))
    values = [*positional, *keyword_only]
    if star:
        plain += f" or not ag__plain.issuperset(ag__map(ag__type, {star}))"
        values.append(f"*{star}")
    if stars:
        params.append(f"**{stars}")
        call.append(f"**{stars}")
        plain += f" or not ag__plain.issuperset(ag__map(ag__type, {stars}.values()))"
        values.append(f"*{stars}.values()")
    return ", ".join(params), plain, "".join(v + ", " for v in values), ", ".join(call)


# The file name of the dispatching functions' code (user_stack skips their frames).
DISPATCH_FILENAME = "<autograph_py fast path>"


@functools.cache
def _maker(code_shape):
    params, plain, values, call = code_shape
    namespace = {}
    exec(compile(_TEMPLATE.format(params=params, plain=plain, values=values, call=call),
                 DISPATCH_FILENAME, "exec"), namespace)
    return namespace["make"]


def _generic(original, converted):
    def dispatch(*args, **kwargs):
        if stages((*args, *kwargs.values())):
            return converted(*args, **kwargs)
        return original(*args, **kwargs)

    return dispatch


def dispatch(original, converted):
    """`converted` where the call stages, `original` elsewhere (see the module doc)."""
    code = original.__code__
    parts = _signature_parts(code)
    if parts is None:
        dispatching = _generic(original, converted)
    else:
        dispatching = _maker(parts)(original, converted, stages, PLAIN,
                                    graphs_being_built, config, sys.modules, _jax_tracing)
        dispatching.__defaults__ = original.__defaults__
        dispatching.__kwdefaults__ = original.__kwdefaults__
    # A wrong call fails naming the function, as the original's would.
    dispatching.__code__ = dispatching.__code__.replace(co_name=code.co_name,
                                                        co_qualname=code.co_qualname)
    functools.update_wrapper(dispatching, original)
    dispatching.__ag_converted__ = True
    return dispatching


# The code of the functions as written in a converted module (`converted_twin`), and of
# the functions and lambdas nested in them: functions made from these codes are the
# user's as written, though their globals are those of a converted module.
_as_written_codes = set()
# id(code of a function as written in a converted module) -> (that code, its conversion).
# By identity: code objects compare equal by content, and a module imported twice (two
# copies, e.g. `import_fresh_module`) has equal codes whose conversions read different
# globals.
_twins = {}


def is_as_written(code):
    return code in _as_written_codes


def _nested_codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _nested_codes(const)


def twin_below(previous):
    """The decorator on a conversion whose function's header reads its own name
    (`@size.setter def size`; converters/dispatching_pair.py): it keeps the conversion
    for the `converted_twin()` of the function just below and leaves the name bound to
    `previous`, its value before, which the header reads."""
    def keep(conversion):
        _below.conversion = conversion
        return previous

    return keep


# The conversion `twin_below` keeps, until the function below takes it (per thread:
# modules may be imported on several threads at once).
_below = threading.local()


def converted_twin(conversion=None):
    """The decorator `autograph convert` writes on a function as written (below the user's
    decorators): it records `conversion` as the function's converted twin and returns the
    function itself, unchanged but for being marked converted. The function's first line
    (`if (...) and ag__.stages(...): return ag__.conversion()(...)`) hands a staging call
    over, so
    a call that stages nothing runs with no frame of ours around it (warnings' stack
    levels, tracebacks, debuggers and the recursion limit see the code as written).
    With the fast path off when the module is imported, it returns the conversion: the
    module's function is its conversion (turning the fast path on later does not change
    that module). Without `conversion`, the one `twin_below` kept."""
    if conversion is None:
        conversion = _below.__dict__.pop("conversion")

    def register(original):
        code = original.__code__
        conversion.__code__ = frame_names.as_the_users(conversion.__code__, code)
        conversion.__name__, conversion.__qualname__ = original.__name__, original.__qualname__
        _twins[id(code)] = (code, conversion)
        _as_written_codes.update(_nested_codes(code))
        if not config._fast_path:
            # Off in this process when the module is imported (AUTOGRAPH_FAST_PATH=0): no
            # call would run as written, so the module binds the conversion itself, and
            # no frame of the function as written comes before each call's.
            conversion.__doc__ = original.__doc__
            return conversion
        original.__ag_converted__ = True
        original.__ag_converted_source__ = conversion
        return original

    return register


# The first line of a function as written (`converters/dispatching_pair.py`) tests
# `(type(a) not in plain or ...) and stages(a, ...)`: its first part is C calls only (no
# frame, a few tens of nanoseconds), false when every argument's type is in `plain`
# (`runtime.context.idle_plain`): the types `stages` found plain while no graph was being
# built, the fast path was on and jax was not imported. It is emptied when any of these
# stops holding (`runtime.context.building`, `config.set_fast_path`, the import of jax
# below), so every call then goes to `stages`.
plain = idle_plain
types_of = functools.partial(map, type)  # for `*args` and `**kwargs`
_jax_seen = ["jax" in sys.modules]


class _ForgetPlainOnJaxImport:
    """On the import path: when jax is first imported, a JAX trace may call a converted
    function on plain values, so every call goes to `stages` (which probes the trace)."""

    def find_spec(self, name, path=None, target=None):
        if name == "jax" and not _jax_seen[0]:
            _jax_seen[0] = True
            forget_idle_plain()
        return None


if not _jax_seen[0]:
    sys.meta_path.insert(0, _ForgetPlainOnJaxImport())


def _may_remember():
    return config._fast_path and not _jax_seen[0] and "jax" not in sys.modules


def stages_call(*values):
    """`stages(values)`, for the first line of a function as written whose C test failed:
    when the call stages nothing, its argument types (plain, then) are remembered in
    `idle_plain`, so the next such call passes the C test."""
    if stages(values):
        return True
    if not graphs_being_built[0] and _may_remember():  # else nothing to remember: no lock
        # Only types no backend may claim (`PLAIN`): a value of another type may stage.
        remember_idle_plain([cls for cls in map(type, values) if cls in PLAIN],
                            _may_remember)
    return False


def conversion():
    """The converted twin of the function as written whose first line calls this: that
    line then calls it with the arguments it received, from its own frame (no frame of
    ours between the two: `sys._getframe(1)` in the conversion is the function as
    written, as it is the caller in the original)."""
    return _twins[id(sys._getframe(1).f_code)][1]


def twin_of(code):
    """The conversion of the function as written with `code`, or None."""
    twin = _twins.get(id(code))
    return twin[1] if twin is not None and twin[0] is code else None
