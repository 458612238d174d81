"""The numpy dataflow runtime: tensors, the op registry, graphs, sessions, variables,
control flow and the staging operators converted code calls.

Importing `autograph_py.runtime` registers every op. The user-facing names are in `public_api`,
which `autograph_py` re-exports. This package never imports `converters` or
`autograph_py` (DESIGN.md §2).
"""

from autograph_py.runtime import control_flow, ops, variables  # noqa: F401  (register the ops)
