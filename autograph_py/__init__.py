"""autograph_py: Python control flow over tensors, staged into dataflow graphs.

`import autograph_py as ag` gives the whole user-facing API: the runtime's tensors, ops,
graphs, sessions, variables and gradient tape (re-exported from
`autograph_py.runtime.public_api`), and the converter's entry points `to_code`,
`to_graph`, `function`, `convert`, `do_not_convert`; `ag.jax.jit` / `ag.jax.grad` for
JAX users (converted code under `jax.jit`, docs/jax.md).

Importing the package is cheap: the API (`autograph_py.api`, which imports the runtime
and numpy) is imported on the first read of one of its names, so the `autograph`
command, which needs only the converters, starts without it.
"""

import importlib as _importlib

__version__ = "0.1.0"


def __getattr__(name):
    """The API's names, imported on first use. A submodule not imported yet is left to
    the import system (AttributeError); ag.SparseTensor and the other names refused on
    purpose say why."""
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module 'autograph_py' has no attribute {name!r}")
    api = _importlib.import_module("autograph_py.api")
    if hasattr(api, "__all__"):  # else it is being imported, and imports a submodule
        # Its names win over the submodules of the same name (`function`).
        globals().update((key, value) for key, value in vars(api).items()
                         if not key.startswith("__") or key == "__all__")
        if name in globals():
            return globals()[name]
    from autograph_py.runtime.unsupported import refuse

    refuse("autograph_py", name)


def __dir__():
    """dir(ag) and completion: the API (loaded if no name was read yet) and
    `__version__`, not the package's own submodules (`ag.loader`, `ag.fast_path`, ...),
    which the import system also binds here."""
    return sorted({*__getattr__("__all__"), "__version__"})
