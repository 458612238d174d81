"""How the symbols of a staged statement are named and checked, for every backend.

Contract:
- `leaf_names(state, symbol_names)`: a name per leaf of `nest.flatten(state)`, after the
  symbol holding it (`'x'`, `'pair[0]'`, `"d['k']"`), for error messages. The converters
  name a symbol they invented by its meaning in angle brackets (`'<return value>'`,
  `'<break flag>'`); it reads "the return value" (`describe_symbol`). Any other name is
  the user's.
- `check_same_structure(before, after, name, where)`: a ValueError naming the symbol.
- `describe(value)`: a value that cannot be staged, in words (`None`, `a str`).
- `probing()`: a context in which a staged loop's probe iteration runs (it only learns
  the specs of the symbols the loop defines); `is_probing()` says whether one is running.
  In a probe, a staged `if` that defines a symbol in one branch only gives it zeros in
  the other instead of an error: the loop's real iteration, which starts with that
  symbol defined, checks the `if` again.
What a backend carries through its control flow is the backend's (graph_values.py for
our graphs).
"""


import contextlib
import threading

from autograph_py.runtime import nest


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


def check_same_structure(before, after, name, where):
    name = describe_symbol(name)
    try:
        nest.assert_same_structure(before, after, name)
    except ValueError as e:
        raise ValueError(f"'{name}' has a different structure {where}: {e}") from e


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
