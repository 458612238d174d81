"""User-facing names of the runtime's core (graphs, sessions, variables, control flow,
specs, errors); `runtime.api` lists the ops. `autograph_py` re-exports both."""

from runtime import errors
from runtime.context import executing_eagerly
from runtime.control_flow import cond, while_loop
from runtime.errors import InvalidArgumentError, OpError
from runtime.gradients.grad_ops import stop_gradient
from runtime.gradients_impl import gradients
from runtime.graph import Graph, Operation, get_default_graph, name_scope, reset_default_graph
from runtime.session import Session
from runtime.tape import GradientTape
from runtime.tensor_spec import TensorSpec
from runtime.variables import Variable

__all__ = [
    "GradientTape", "Graph", "InvalidArgumentError", "OpError", "Operation", "Session",
    "TensorSpec", "Variable", "cond", "errors", "executing_eagerly", "get_default_graph",
    "gradients", "name_scope", "reset_default_graph", "stop_gradient", "while_loop",
]
