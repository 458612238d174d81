"""User-facing names of the runtime's core (graphs, sessions, variables, control flow,
specs, errors); `runtime.api` lists the ops. `autograph_py` re-exports both."""

from autograph_py.runtime import errors
from autograph_py.runtime.context import executing_eagerly
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.errors import InvalidArgumentError, OpError
from autograph_py.runtime.gradients.grad_ops import stop_gradient
from autograph_py.runtime.gradients_impl import gradients
from autograph_py.runtime.graph import (
    Graph,
    Operation,
    get_default_graph,
    name_scope,
    reset_default_graph,
)
from autograph_py.runtime.session import Session
from autograph_py.runtime.tape import GradientTape
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.variables import Variable

__all__ = [
    "GradientTape", "Graph", "InvalidArgumentError", "OpError", "Operation", "Session",
    "TensorSpec", "Variable", "cond", "errors", "executing_eagerly", "get_default_graph",
    "gradients", "name_scope", "reset_default_graph", "stop_gradient", "while_loop",
]
