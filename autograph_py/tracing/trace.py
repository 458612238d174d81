"""Tracing: run a Python function once on placeholders, in a function graph, and make the
`ConcreteFunction` that replays it.

Contract: `trace(fn, name, params, values, specs, number)`:
- every tensor leaf of `values` (the bound arguments) becomes a placeholder with the next
  spec of `specs`, named after its parameter (`x`; nested leaves `x_0`, `x_1`, ...);
  other values are passed as they are;
- `fn` runs once inside a FuncGraph whose Variables are lifted out (created eagerly, their
  initial values computed outside the graph, as TensorFlow's `init_scope` does, and the
  random draws that only served them removed from it: `runtime.lifting`); on any
  trace but the function's first (`number` counts from 1) creating a Variable raises a
  ValueError saying where to create it instead;
- the returned structure is kept: tensors become the graph's outputs (captured if made
  outside, Variables and TensorLists read), Python values stay as they were.
"""

import contextlib

from autograph_py.runtime import context, lifting, nest
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.tensor import SymbolicTensor, Tensor
from autograph_py.tracing.concrete_function import ConcreteFunction
from autograph_py.tracing.trace_key import is_tensor_like


def trace(fn, name, params, values, specs, number):
    graph = FuncGraph(name, None)
    graph.lift_variables = True
    placeholders = []
    names = iter(_placeholder_names(params, values))
    spec_iter = iter(specs)

    def placeholder_for(value):
        if not is_tensor_like(value):
            return value
        spec = next(spec_iter)
        t = graph.add_input(next(names), spec.shape, spec.dtype)
        placeholders.append(t)
        return t

    guard = contextlib.nullcontext() if number == 1 else _no_variable_creation(name, number)
    with guard, graph.as_default():
        call_values = [nest.map_structure(placeholder_for, v) for v in values]
        args, kwargs = call_arguments(params, call_values)
        result = fn(*args, **kwargs)
        structured = nest.map_structure(lambda leaf: _output_leaf(graph, leaf), result)
    outputs = [t for t in nest.flatten(structured) if isinstance(t, SymbolicTensor)]
    graph.outputs = outputs
    lifting.detach_lifted(graph)
    return ConcreteFunction(graph, placeholders, outputs, structured, list(specs))


def call_arguments(params, values):
    """`(args, kwargs)` for calling the function with values bound to `params`."""
    args, kwargs = [], {}
    for param, value in zip(params, values):
        if param.kind == param.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind == param.VAR_KEYWORD:
            kwargs.update(value)
        elif param.kind == param.KEYWORD_ONLY:
            kwargs[param.name] = value
        else:
            args.append(value)
    return args, kwargs


def _placeholder_names(params, values):
    for param, value in zip(params, values):
        leaves = [v for v in nest.flatten(value) if is_tensor_like(v)]
        if len(leaves) == 1 and not nest.is_nested(value):
            yield param.name
        else:
            for i in range(len(leaves)):
                yield f"{param.name}_{i}"


@contextlib.contextmanager
def _no_variable_creation(name, number):
    def refuse(var):
        raise ValueError(
            f"ag.function '{name}' tried to create a Variable on a later trace "
            f"(trace #{number}); create "
            "variables on the first call only, e.g. in __init__ or behind "
            "`if self.v is None:`")

    hooks = context.variable_creation_hooks()
    hooks.append(refuse)
    try:
        yield
    finally:
        hooks.remove(refuse)


def _output_leaf(graph, leaf):
    if isinstance(leaf, Tensor):
        return graph.capture(leaf)
    if hasattr(leaf, "_as_tensor"):  # a Variable (read at run time) or a staged TensorList
        return graph.capture(leaf._as_tensor())
    return leaf
