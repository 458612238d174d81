"""How the symbols' state (what `get_state()` returns) crosses a staged `cond`/`while_loop`.

Contract:
- `leaf_names(state, symbol_names)`: a name per leaf of `nest.flatten(state)`, after the
  symbol holding it (`'x'`, `'pair[0]'`, `"d['k']"`), for error messages. The converters
  name a symbol they invented by its meaning in angle brackets (`'<return value>'`,
  `'<break flag>'`); it reads "the return value". Any other name is the user's.
- `is_carried(value)`: tensors, `TensorList`s and Python/numpy numbers are carried
  through the op (as tensors; a TensorList as its stacked tensor, see `to_tensor` /
  `from_tensor`). Every other leaf (None, strings, Variables, functions, objects,
  `Undefined`) passes through untouched, so it must leave a branch or an iteration as
  the very same object.
- `placeholder_like(value)`: a value of the same structure, dtypes and (known) shapes,
  for a symbol that a path leaves unassigned although its value is never observed
  there (a `retval_` on a path that has not returned, a loop-local temporary).
- `check_same_structure(before, after, name, where)`: a ValueError naming the symbol.
- `shape_invariants(state, pairs)`: the shape invariant of each leaf for `while_loop`.
- `probing()`: a context in which a staged loop's probe iteration runs (it only learns
  the specs of the symbols the loop defines); `is_probing()` says whether one is running.
  In a probe, a staged `if` that defines a symbol in one branch only gives it zeros in
  the other instead of an error: the loop's real iteration, which starts with that
  symbol defined, checks the `if` again.
"""

import contextlib
import numbers
import threading

import numpy as np
from autograph_py.runtime import nest
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.ops.creation_ops import zeros
from autograph_py.runtime.shape_invariants import RELAXED
from autograph_py.runtime.tensor import Tensor


def describe_symbol(name):
    if name.startswith("<") and name.endswith(">"):  # invented by the converters
        return f"the {name[1:-1]}"
    return name


def leaf_names(state, symbol_names):
    names = []
    for i, value in enumerate(state):
        name = symbol_names[i] if i < len(symbol_names) else f"state[{i}]"
        names.extend(_leaf_paths(value, describe_symbol(name)))
    return names


def _leaf_paths(value, path):
    if not nest.is_nested(value):
        return [path]
    if nest.is_composite(value):  # a TensorArray's tensors are named after it
        return [path] * len(nest.flatten(value))
    if isinstance(value, dict):
        keys = list(value)
        # nest orders dict leaves its own way; flattening {key: position} reveals it.
        items = [(keys[i], value[keys[i]]) for i in nest.flatten(dict(zip(keys,
                                                                        range(len(keys)))))]
    else:
        items = enumerate(value)
    return [leaf for key, child in items for leaf in _leaf_paths(child, f"{path}[{key!r}]")]


def is_carried(value):
    return isinstance(value, (Tensor, TensorList, numbers.Number, np.generic, np.ndarray))


def to_tensor(value):
    return value.stacked if isinstance(value, TensorList) else value


def from_tensor(template, tensor):
    return TensorList(tensor) if isinstance(template, TensorList) else tensor


def _zeros_like_spec(value):
    if isinstance(value, TensorList):
        return TensorList(_zeros_like_spec(value.stacked))
    if not isinstance(value, Tensor):
        return value
    dims = [d or 0 for d in value.shape.dims] if value.shape.dims is not None else []
    return zeros(dims, value.dtype)


def placeholder_like(value):
    return nest.map_structure(_zeros_like_spec, value)


def check_same_structure(before, after, name, where):
    name = describe_symbol(name)
    try:
        nest.assert_same_structure(before, after, name)
    except ValueError as e:
        raise ValueError(f"'{name}' has a different structure {where}: {e}") from e


def shape_invariants(state, pairs):
    """For `while_loop`, one entry per leaf of `nest.flatten(state)`: RELAXED for the
    tensors of TensorArrays and TensorLists (they grow by design), the shape of the
    `(value, shape)` pair whose value is that leaf (matched by identity, as TensorFlow
    matches `set_loop_options(shape_invariants=...)`), else None."""
    entries = [entry for value in state for entry in _growing(value)]
    flat = nest.flatten(state)
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise ValueError(f"shape_invariants: expected (variable, shape) pairs, got "
                             f"{pair!r}")
        value, shape = pair
        matches = [i for i, leaf in enumerate(flat) if leaf is value]
        if not matches:
            raise ValueError(f"shape_invariants: {value!r} is not the value of a variable "
                             "the loop changes; name the variable itself, e.g. "
                             "ag.set_loop_options(shape_invariants=[(x, [None])])")
        for i in matches:
            entries[i] = shape
    return entries


def _growing(value):
    if isinstance(value, TensorList) or nest.is_composite(value):
        return [RELAXED] * len(nest.flatten(value))
    if nest.is_nested(value):
        return [entry for child in nest.children(value) for entry in _growing(child)]
    return [None]


_PROBES = threading.local()


@contextlib.contextmanager
def probing():
    _PROBES.depth = getattr(_PROBES, "depth", 0) + 1
    try:
        yield
    finally:
        _PROBES.depth -= 1


def is_probing():
    return getattr(_PROBES, "depth", 0) > 0


def describe(value):
    """`value`'s kind in words, for messages about values that cannot be staged."""
    return "None" if value is None else f"a {type(value).__name__}"
