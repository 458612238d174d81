"""`Session`: runs fetches of a graph with feeds, holding graph-created variables' values.

Contract:
- `Session(graph=None)` binds the default graph (the one being built, else the global
  one). It is a context manager; `close()` releases the cached plans and values.
- `run(fetches, feed_dict=None)`: fetches are tensors, operations, Variables or nested
  lists/tuples/dicts of them; the result has the same structure (operations give None,
  tensors numpy values). Any tensor can be fed (its producers are pruned). A plan is
  compiled once per (fetches, fed tensors) and reused.
- Feeds are checked: unknown or foreign tensors, a dtype that cannot hold the value
  losslessly, a shape that contradicts the static shape — each a clear error naming the
  tensor.
- Variables created eagerly keep their value on the Variable; variables created in a
  graph get a per-session value, initialized on first use from their initial value.
"""

import numpy as np
from autograph_py.runtime import context, nest
from autograph_py.runtime.graph import Operation, get_default_graph
from autograph_py.runtime.plan.executor import Plan, run_subgraph
from autograph_py.runtime.tensor import EagerTensor, SymbolicTensor, immutable, to_array


class Session:
    def __init__(self, graph=None):
        self.graph = graph if graph is not None else (context.current_graph() or
                                                       get_default_graph())
        self._plans = {}
        self._variable_values = {}
        self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._closed = True
        self._plans.clear()
        self._variable_values.clear()

    # --- run context used by stateful kernels -----------------------------------------

    def read_variable(self, var):
        if var.graph is None:
            return var._value
        value = self._variable_values.get(var)
        if value is None:
            value = self.run(var.initial_value)
            value = self._variable_values[var] = immutable(np.asarray(value))
        return value

    def write_variable(self, var, value):
        if var.graph is None:
            var._value = value
        else:
            self._variable_values[var] = value

    run_subgraph = run_subgraph  # (graph, inputs) -> outputs of the graph's plan

    # --- run ------------------------------------------------------------------------

    def run(self, fetches, feed_dict=None):
        if self._closed:
            raise RuntimeError("this Session is closed")
        feed_tensors, feed_values = self._feeds(feed_dict) if feed_dict else ((), [])
        if type(fetches) is SymbolicTensor and fetches.op.graph is self.graph:
            # One tensor, the common case: no nest walk, no pickers, the key built inline
            # (the same key as `_plan` makes).
            plan = self._plans.get(((id(fetches),), (), tuple(map(id, feed_tensors))))
            if plan is None:
                plan = self._plan([fetches], (), feed_tensors)
            return _fetched(plan.run(self, feed_values)[0])
        plan, pickers = self._plan_and_pickers(fetches, feed_tensors)
        values = plan.run(self, feed_values)
        return nest.pack_sequence_as(fetches, [pick(values) for pick in pickers])

    def code(self, fetches, feeds=()):
        """The Python source that `run(fetches, feed_dict)` executes, for `feeds` the fed
        tensors (or a feed_dict: its keys). The plan is compiled and cached as `run` would."""
        feed_tensors = [self._feed_tensor(key) for key in feeds]
        return self._plan_and_pickers(fetches, feed_tensors)[0].code

    def _plan_and_pickers(self, fetches, feed_tensors):
        """The plan for `fetches`, and for each leaf of `fetches` a function that picks its
        result from the plan's values."""
        tensors, ops = [], []
        pickers = [self._fetch_target(leaf, tensors, ops) for leaf in nest.flatten(fetches)]
        return self._plan(tensors, ops, feed_tensors), pickers

    def _plan(self, tensors, ops, feed_tensors):
        key = (tuple(map(id, tensors)), tuple(map(id, ops)), tuple(map(id, feed_tensors)))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = Plan(self.graph, tensors, ops, feed_tensors)
        return plan

    def _fetch_target(self, leaf, tensors, ops):
        if isinstance(leaf, str):
            leaf = (self.graph.get_tensor_by_name(leaf) if ":" in leaf
                    else self.graph.get_operation_by_name(leaf))
        as_graph_tensor = getattr(leaf, "_graph_tensor", None)
        if as_graph_tensor is not None:  # a Variable: fetch its value
            leaf = as_graph_tensor(self.graph)
        if isinstance(leaf, SymbolicTensor):
            self._check_graph(leaf.graph, leaf.name)
            index = len(tensors)
            tensors.append(leaf)
            return lambda values: _fetched(values[index])
        if isinstance(leaf, Operation):
            self._check_graph(leaf.graph, leaf.name)
            ops.append(leaf)
            return lambda values: None
        if isinstance(leaf, EagerTensor):
            return lambda values: _fetched(leaf._value)
        if leaf is None:
            return lambda values: None
        raise TypeError(f"cannot fetch {leaf!r} (type {type(leaf).__name__}): fetches must be "
                        "tensors, operations, Variables or nested lists/tuples/dicts of them")

    def _check_graph(self, graph, name):
        if graph is not self.graph:
            raise ValueError(f"{name} belongs to another graph than this Session's; create "
                             "the Session inside that graph's `as_default()` block or pass "
                             "Session(graph=...)")

    def _feeds(self, feed_dict):
        tensors, values = [], []
        for key, value in feed_dict.items():
            # The common case first: a numpy array of the right dtype and a matching shape.
            if type(key) is SymbolicTensor and type(value) is np.ndarray and \
                    key.op.graph is self.graph and value.dtype == key._dtype.np_dtype and \
                    _shape_matches(key._shape.dims, value.shape):
                tensors.append(key)
                values.append(value)
                continue
            tensor = self._feed_tensor(key)
            try:
                array = to_array(value, tensor.dtype)
            except TypeError as e:
                raise TypeError(f"cannot feed {tensor.name} (dtype {tensor.dtype.name}): {e}") \
                    from None
            if not tensor.shape.is_compatible_with(array.shape):
                raise ValueError(f"cannot feed a value of shape {array.shape} for tensor "
                                 f"{tensor.name}, which has shape {tensor.shape}")
            tensors.append(tensor)
            values.append(array)
        return tensors, values

    def _feed_tensor(self, key):
        tensor = self.graph.get_tensor_by_name(key) if isinstance(key, str) else key
        if not isinstance(tensor, SymbolicTensor):
            raise TypeError(f"feed_dict keys must be symbolic tensors of the graph, got {key!r}")
        self._check_graph(tensor.graph, tensor.name)
        return tensor


def _shape_matches(dims, shape):
    """`TensorShape(dims).is_compatible_with(shape)` for a concrete `shape`, quickly."""
    return dims is None or dims == shape or (
        len(dims) == len(shape) and all(d is None or d == s for d, s in zip(dims, shape)))


def _fetched(value):
    if isinstance(value, np.generic):  # what a ufunc gives for 0-d inputs
        return value
    array = value if type(value) is np.ndarray else np.asarray(value)
    return array[()] if array.ndim == 0 else array
