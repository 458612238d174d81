"""The numpy dataflow runtime: tensors, the op registry, graphs, sessions, variables,
control flow and the staging operators converted code calls.

Importing `autograph_py.runtime` registers every op and attaches the graph views
(`Graph.as_text`, `lint`, `as_dict`/`from_dict`, `to_dot`). The user-facing names are in
`public_api`, which `autograph_py` re-exports. This package never imports `converters` or
`autograph_py` (DESIGN.md §2).
"""

# Imported for their effect: control_flow, ops and variables register the ops;
# tensor_operators attaches Tensor's Python operators; the views (dot, lint, text,
# serialization) attach their methods to Graph.
from autograph_py.runtime import control_flow, ops, tensor_operators, variables  # noqa: F401
from autograph_py.runtime.views import dot, lint, serialization, text  # noqa: F401
