"""autograph_py: Python control flow over tensors, staged into dataflow graphs.

`import autograph_py as ag` gives the whole user-facing API: the runtime's tensors, ops,
graphs, sessions, variables and gradient tape (re-exported from
`autograph_py.runtime.public_api`), and the converter's entry points `to_code`,
`to_graph`, `function`, `convert`, `do_not_convert`; `ag.jax.jit` / `ag.jax.grad` for
JAX users (converted code under `jax.jit`, docs/jax.md).
"""

# `operators` is what converted code calls as `ag__`: importing it binds it for conversion.
# `jax` is ag.jax.jit / ag.jax.grad (it imports JAX only when used).
from autograph_py import config, converters, error_rewriting, jax, operators, source_map, summary  # noqa: F401,E501
from autograph_py.concrete_function import ConcreteFunction
from autograph_py.conversion import convert, converted_call, do_not_convert, to_code, to_graph
from autograph_py.converters.errors import ConversionError
from autograph_py.directives import autograph, set_element_type, set_loop_options
from autograph_py.function import Function, function
from autograph_py.runtime import data as _data
from autograph_py.runtime import errors as _runtime_errors
from autograph_py.runtime.public_api import *  # noqa: F401,F403
from autograph_py.runtime.public_api import __all__ as _runtime_all
from autograph_py.runtime.unsupported import refuse as _refuse

__version__ = "0.1.0"

# Ops created by converted code (and by this package) are located at the user's line.
_runtime_errors.add_library_dir(__file__)
_runtime_errors.add_library_dir(converters.__file__)
_runtime_errors.set_location_resolver(source_map.lookup)
# Dataset functions (map, filter, reduce) are converted like any user function.
_data.set_caller(converted_call)
# Converted code meeting a JAX tracer stages with lax (the row loads JAX only then).
jax.register()



def __getattr__(name):  # ag.SparseTensor and the other names refused on purpose
    _refuse("autograph_py", name)


__all__ = list(_runtime_all) + [
    "to_code", "to_graph", "convert", "do_not_convert", "converted_call", "function",
    "Function", "ConcreteFunction", "error_rewriting", "set_loop_options", "ConversionError",
    "autograph", "set_element_type",
    "summary", "config",
    "__version__",
]
