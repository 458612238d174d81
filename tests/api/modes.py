"""Run one function in the four modes the quality bar names, against a plain-Python oracle.

- python:   the converted function on Python values (exact Python semantics);
- eager:    the converted function on eager tensors;
  both forced onto the converted path (tests/converted_path.py): a call that stages
  nothing would otherwise run the function as written, the oracle itself;
- graph:    the converted function on placeholders, run by a Session;
- function: `ag.function(fn)` on eager tensors (trace once, run the compiled graph).
- jit_compile: `ag.function(fn, jit_compile=True)` on eager tensors (XLA through JAX);
  not in MODES: the corpus and the staging tests add it where they run (JIT_MODES).
- jax: `jax.jit(ag.to_graph(fn))` on JAX arrays (numbers and numeric lists become
  traced arrays; other arguments are closed over): the JAX staging backend.

`run_mode(mode, fn, args)` returns the result as numpy values (nested structures kept),
or raises what the mode raised.
"""

import numpy as np
from autograph_py.runtime import nest

import autograph_py as ag
from tests.converted_path import converted_path

MODES = ("python", "eager", "graph", "function")
JIT_MODES = MODES + ("jit_compile",)


def _tensor_arg(value):
    if isinstance(value, (bool, int, float)) or (
            isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value)):
        return ag.constant(value)
    return value


def _placeholder_arg(value, feeds):
    tensor = _tensor_arg(value)  # eager: called before the graph is entered
    if not isinstance(tensor, ag.Tensor):
        return lambda: value
    array = tensor.numpy()
    return lambda: _feed(tensor, array, feeds)


def _feed(tensor, array, feeds):
    placeholder = ag.placeholder(tensor.dtype, shape=array.shape)
    feeds[placeholder] = array
    return placeholder


def to_numpy(value):
    if isinstance(value, ag.Tensor) or hasattr(value, "_as_tensor"):
        return np.asarray(ag.convert_to_tensor(value).numpy())
    if isinstance(value, (np.generic, np.ndarray)):
        return np.asarray(value)
    return value


def _is_numeric(value):
    return isinstance(value, (bool, int, float)) or (
        isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value))


def run_jax(fn, args):
    """`jax.jit(ag.to_graph(fn))` over the numeric arguments as JAX arrays."""
    import jax  # noqa: PLC0415  (the [xla] extra)
    import jax.numpy as jnp  # noqa: PLC0415

    traced = [i for i, a in enumerate(args) if _is_numeric(a)]
    converted = ag.to_graph(fn)

    def call(*arrays):
        full = list(args)
        for i, array in zip(traced, arrays):
            full[i] = array
        return converted(*full)

    result = jax.jit(call)(*[jnp.asarray(args[i]) for i in traced])
    return jax.tree_util.tree_map(np.asarray, result)


def run_mode(mode, fn, args):
    if mode == "jax":
        return run_jax(fn, args)
    if mode == "python":
        with converted_path():
            return ag.to_graph(fn)(*args)
    if mode == "eager":
        tensors = [_tensor_arg(a) for a in args]
        with converted_path():
            return nest.map_structure(to_numpy, ag.to_graph(fn)(*tensors))
    if mode in ("function", "jit_compile"):
        result = ag.function(fn, jit_compile=mode == "jit_compile")(
            *[_tensor_arg(a) for a in args])
        return nest.map_structure(to_numpy, result)
    feeds = {}
    makers = [_placeholder_arg(a, feeds) for a in args]
    with ag.Graph().as_default():
        graph_args = [make() for make in makers]
        result = ag.to_graph(fn)(*graph_args)
        with ag.Session() as sess:
            fetched = sess.run(nest.map_structure(
                lambda v: v if isinstance(v, ag.Tensor) or hasattr(v, "_graph_tensor") or
                hasattr(v, "_as_tensor") else None, result), feeds)
        leaves = nest.flatten(result)
        fetched_leaves = nest.flatten(fetched)
        merged = [f if (isinstance(v, ag.Tensor) or hasattr(v, "_as_tensor")) else v
                  for v, f in zip(leaves, fetched_leaves)]
        return nest.pack_sequence_as(result, [to_numpy(v) for v in merged])


def assert_same(expected, actual):
    if isinstance(expected, list) and isinstance(actual, np.ndarray):
        # A Python list grown in a staged loop comes back stacked as one tensor.
        np.testing.assert_allclose(actual, np.asarray(expected, dtype=np.float64), rtol=1e-6)
        return
    flat_expected, flat_actual = nest.flatten(expected), nest.flatten(actual)
    assert len(flat_expected) == len(flat_actual), (expected, actual)
    for e, a in zip(flat_expected, flat_actual):
        if isinstance(e, (int, float, bool, np.generic, np.ndarray, list)) and not isinstance(
                e, str):
            np.testing.assert_allclose(np.asarray(a, dtype=np.float64),
                                       np.asarray(e, dtype=np.float64), rtol=1e-6)
        else:
            assert a == e
