"""The public API of `autograph_py`, imported by the package on first use.

`import autograph_py` alone imports nothing else (the `autograph` command needs only
the converters, and starts without numpy); the first attribute read from the package
(`ag.function`, `from autograph_py import *`, ...) imports this module, which imports
the runtime, connects its hooks below, and gives the package its names.
"""

# `operators` is what converted code calls as `ag__`: importing it binds it for conversion.
# `jax` is ag.jax.jit / ag.jax.grad (it imports JAX only when used); `onnx` is
# ag.onnx.export (it imports the onnx package only when used).
from autograph_py import (  # noqa: F401,E501
    __version__,
    config,
    converters,
    error_rewriting,
    fast_path,
    jax,
    onnx,
    operators,
    saved_model,
    source_map,
    summary,
)
from autograph_py.conversion import convert, converted_call, do_not_convert, to_code, to_graph
from autograph_py.converters.errors import ConversionError
from autograph_py.directives import autograph, set_element_type, set_loop_options
from autograph_py.distribution import NAMESPACE as distribute
from autograph_py.runtime import data as _data
from autograph_py.runtime import errors as _runtime_errors
from autograph_py.runtime.public_api import *  # noqa: F401,F403
from autograph_py.runtime.public_api import __all__ as _runtime_all
from autograph_py.tracing.concrete_function import ConcreteFunction
from autograph_py.tracing.function import Function, function

# Ops created by converted code (and by this package) are located at the user's line.
_runtime_errors.add_library_dir(__file__)
_runtime_errors.add_library_dir(converters.__file__)
# The fast path's dispatching functions (to_graph's, a function's call handing over).
_runtime_errors.add_library_prefix(fast_path.DISPATCH_FILENAME)
_runtime_errors.set_location_resolver(source_map.lookup)
# Dataset functions (map, filter, reduce) are converted like any user function.
_data.set_caller(converted_call)
# Converted code meeting a JAX tracer stages with lax (the row loads JAX only then).
jax.register()

__all__ = list(_runtime_all) + [
    "to_code", "to_graph", "convert", "do_not_convert", "converted_call", "function",
    "Function", "ConcreteFunction", "error_rewriting", "set_loop_options", "ConversionError",
    "autograph", "set_element_type",
    "summary", "saved_model", "onnx", "config", "distribute",
    "__version__",
]
