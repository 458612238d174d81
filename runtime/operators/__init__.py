"""The staging operators converted code calls through `ag__` (docs/architecture.md).

Each operator mirrors the construct it replaces and dispatches on its values: Python
values and eager tensors keep exact Python semantics; a value some staging backend claims
(backends.py: our symbolic tensors, registered here; JAX tracers, registered by
`autograph_py`) is staged by that backend.
`autograph_py.operators` re-exports these names and adds `converted_call`.
"""

from autograph_py.runtime.operators import graph_backend
from autograph_py.runtime.operators.conditional_expressions import if_exp
from autograph_py.runtime.operators.control_flow import for_stmt, if_stmt, while_stmt
from autograph_py.runtime.operators.exceptions import assert_stmt
from autograph_py.runtime.operators.frames import local_names, user_locals
from autograph_py.runtime.operators.lists import (
    TensorList,
    list_append,
    list_pop,
    list_stack,
    new_list,
    set_element_type,
)
from autograph_py.runtime.operators.logical import and_, compare_chain, not_, or_
from autograph_py.runtime.operators.py_builtins import (
    BUILTIN_OVERLOADS,
    abs_,
    bool_,
    enumerate_,
    float_,
    int_,
    isinstance_,
    len_,
    max_,
    min_,
    range_,
    sum_,
    zip_,
)
from autograph_py.runtime.operators.thunks import ONCE, once
from autograph_py.runtime.operators.trace_warnings import outer_list_append
from autograph_py.runtime.operators.undefined import (
    Undefined,
    UndefinedReturnValue,
    UndefinedSymbolError,
    ld,
    ldu,
)

graph_backend.register()

__all__ = [
    "if_stmt", "while_stmt", "for_stmt", "if_exp", "and_", "or_", "not_", "compare_chain",
    "once", "ONCE", "user_locals", "local_names",
    "assert_stmt", "Undefined", "UndefinedReturnValue", "UndefinedSymbolError", "ld", "ldu",
    "new_list", "list_append", "outer_list_append", "list_pop", "list_stack", "TensorList",
    "set_element_type",
    "len_", "range_",
    "enumerate_", "zip_", "abs_", "bool_", "int_", "float_", "min_", "max_", "isinstance_", "sum_",
    "BUILTIN_OVERLOADS",
]
