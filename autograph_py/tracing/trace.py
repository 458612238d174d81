"""Tracing: run a Python function once on placeholders, in a function graph, and make the
`ConcreteFunction` that replays it.

Contract: `trace(fn, name, params, values, specs, on_variable)` returns a `Traced`
(`graph`, `inputs`, `outputs`, `structured_outputs`, `input_specs`, `parameters`;
`compile()` makes its `ConcreteFunction`, so a trace that is thrown away is never
compiled):
- every tensor leaf of `values` (the bound arguments) becomes a placeholder with the next
  spec of `specs`, named after its parameter (`x`; nested leaves `x_0`, `x_1`, ...);
  other values are passed as they are;
- `fn` runs once inside a FuncGraph whose Variables are lifted out (created eagerly, their
  initial values computed outside the graph, as TensorFlow's `init_scope` does, and the
  random draws that only served them removed from it: `runtime.lifting`);
  `on_variable(variable, location)` is called for each Variable the function creates
  meanwhile in this thread, `location` the user's `file:line`: it records it, or raises to
  refuse it (`refuse_variables`: TensorFlow's rule, docs/function.md "Variables");
- the returned structure is kept: tensors become the graph's outputs (captured if made
  outside, Variables and TensorLists read), Python values stay as they were;
- `parameters` pairs each parameter (`inspect.Parameter`) with what the trace bound to
  it, tensors replaced by their placeholders (what `ag.saved_model` needs to call the
  graph again without the Python function).
"""

import contextlib
from typing import NamedTuple

from autograph_py.runtime import context, errors, lifting, nest
from autograph_py.runtime.graph import FuncGraph
from autograph_py.runtime.tensor import SymbolicTensor, Tensor
from autograph_py.tracing.concrete_function import ConcreteFunction
from autograph_py.tracing.trace_key import is_tensor_like


class Traced(NamedTuple):
    graph: FuncGraph
    inputs: list
    outputs: list
    structured_outputs: object
    input_specs: list
    parameters: tuple

    def compile(self):
        return ConcreteFunction(*self)


def trace(fn, name, params, values, specs, on_variable):
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

    with _watching_variables(on_variable), graph.as_default():
        call_values = [nest.map_structure(placeholder_for, v) for v in values]
        args, kwargs = call_arguments(params, call_values)
        result = fn(*args, **kwargs)
        structured = nest.map_structure(lambda leaf: _output_leaf(graph, leaf), result)
    outputs = [t for t in nest.flatten(structured) if isinstance(t, SymbolicTensor)]
    graph.outputs = outputs
    lifting.detach_lifted(graph)
    return Traced(graph, placeholders, outputs, structured, list(specs),
                  tuple(zip(params, call_values)))


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


def refuse_variables(name, why):
    """An `on_variable` refusing every Variable: a ValueError naming the function, the
    Variable and the user's line, then `why` this trace may not create it."""
    def refuse(variable, location):
        raise ValueError(f"ag.function '{name}' tried to create Variable "
                         f"'{variable.name}' at {location} {why}")
    return refuse


@contextlib.contextmanager
def _watching_variables(on_variable):
    def hook(variable):
        # Called from Variable.__init__ in the user's code: its line is the first frame
        # outside the library.
        on_variable(variable, errors.format_location(errors.user_location()))

    hooks = context.variable_creation_hooks()
    hooks.append(hook)
    try:
        yield
    finally:
        hooks.remove(hook)


def _output_leaf(graph, leaf):
    if isinstance(leaf, Tensor):
        return graph.capture(leaf)
    if hasattr(leaf, "_as_tensor"):  # a Variable (read at run time) or a staged TensorList
        return graph.capture(leaf._as_tensor())
    return leaf
