"""What our graph backend carries through a staged `cond`/`while_loop`, and how.

Contract:
- `is_carried(value)`: tensors, `TensorList`s and Python/numpy numbers are carried
  through the op (as tensors; a TensorList as its stacked tensor, see `to_tensor` /
  `from_tensor`). Every other leaf (None, strings, Variables, functions, objects,
  `Undefined`) passes through untouched, so it must leave a branch or an iteration as
  the very same object.
- `placeholder_like(value)`: a value of the same structure, dtypes and (known) shapes,
  for a symbol that a path leaves unassigned although its value is never observed
  there (a `retval_` on a path that has not returned, a loop-local temporary).
- `shape_invariants(state, pairs)`: the shape invariant of each leaf for `while_loop`.
"""

import numbers

import numpy as np
from autograph_py.runtime import nest
from autograph_py.runtime.operators.lists import TensorList
from autograph_py.runtime.ops.creation_ops import zeros
from autograph_py.runtime.shape_invariants import RELAXED
from autograph_py.runtime.tensor import Tensor


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

