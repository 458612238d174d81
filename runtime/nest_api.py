"""`ag.nest`: TensorFlow's `tf.nest` (flatten, map_structure, pack_sequence_as,
assert_same_structure, is_nested), with its semantics, over runtime/nest.py.

Contract:
- A structure is a list, a tuple (namedtuples too) or a dict (OrderedDict, defaultdict
  and other dict subclasses) holding structures; anything else is an atom: `None`,
  strings, numbers, numpy arrays, tensors, Variables, sets. `flatten(None) == [None]`.
- A dict's values come in sorted key order, and packing gives back the structure's own
  key order (so an OrderedDict flattened and repacked into a dict round-trips).
- Composites (a TensorArray, an `ag.data` dataset) are atoms unless
  `expand_composites=True`, which lists their tensors (TensorFlow's CompositeTensor).
- `assert_same_structure(nest1, nest2, check_types=True, expand_composites=False)`: a
  ValueError where one side is nested and the other not, or lengths differ; with
  `check_types`, a TypeError where two sequences differ in type (two namedtuple classes
  of one name and fields count as one type, as do two list types and two dict types) and
  a ValueError where two dicts' keys differ. Messages say where (`[1]['a']`) and end
  with both structures, atoms shown as `.` (as TensorFlow prints them).
- `map_structure(func, *structure, check_types=True, expand_composites=False)`: the
  structures must match (as above); the result has the first one's structure.
- `pack_sequence_as(structure, flat_sequence, expand_composites=False)`: a ValueError
  when the counts differ, a TypeError when `flat_sequence` is not a list or tuple.

Differences from TensorFlow: dict keys Python cannot compare with each other (TensorFlow
raises a TypeError) are ordered by type name, then value; Mapping and Sequence types other
than dict, list and tuple, and attrs classes, are atoms here.
"""

from autograph_py.runtime import nest as _nest


def is_nested(seq):
    """Whether `seq` is a list, tuple or dict (a structure rather than an atom)."""
    return _nest.is_nested(seq, expand_composites=False)


def flatten(structure, expand_composites=False):
    """The atoms of `structure`, depth first, dict values in sorted key order."""
    return _nest.flatten(structure, expand_composites)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """`flat_sequence` packed into the structure of `structure`."""
    if not isinstance(flat_sequence, (list, tuple)):
        raise TypeError(f"pack_sequence_as: flat_sequence must be a list or tuple of atoms, "
                        f"got {type(flat_sequence).__name__}: {_short(flat_sequence)}")
    atoms = len(flatten(structure, expand_composites))
    if atoms != len(flat_sequence):
        raise ValueError(f"pack_sequence_as: the structure has {atoms} atoms but "
                         f"flat_sequence has {len(flat_sequence)} items. Structure: "
                         f"{_short(structure)}, flat_sequence: {_short(flat_sequence)}")
    return _nest.pack_sequence_as(structure, flat_sequence, expand_composites)


def map_structure(func, *structure, check_types=True, expand_composites=False):
    """`func` applied to the atoms of `structure` (several structures: to the atoms at
    the same place in each), in the first structure's shape."""
    if not callable(func):
        raise TypeError(f"map_structure: func must be callable, got {func!r}")
    if not structure:
        raise ValueError("map_structure: give at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types, expand_composites)
    flat = [flatten(s, expand_composites) for s in structure]
    return _nest.pack_sequence_as(structure[0], [func(*atoms) for atoms in zip(*flat)],
                                  expand_composites)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raise when `nest1` and `nest2` are not nested the same way (see the contract)."""
    try:
        _compare(nest1, nest2, check_types, expand_composites, "")
    except (ValueError, TypeError) as e:
        raise type(e)(f"{e}\nEntire first structure:\n{_skeleton(nest1, expand_composites)}\n"
                      f"Entire second structure:\n{_skeleton(nest2, expand_composites)}"
                      ) from None


def _compare(a, b, check_types, expand_composites, path):
    where = f"at {path}" if path else "at the top level"
    a_nested, b_nested = (_nest.is_nested(v, expand_composites) for v in (a, b))
    if a_nested != b_nested:
        raise ValueError(f"The two structures don't have the same nested structure: "
                         f"{where}, the first is {_describe(a, a_nested)} and the second "
                         f"is {_describe(b, b_nested)}")
    if not a_nested:
        return
    composite = _nest.is_composite(a) or _nest.is_composite(b)
    if (check_types or composite) and not _same_type(a, b):
        error = TypeError if check_types else ValueError
        raise error(f"The two structures don't have the same sequence type: {where}, the "
                    f"first is a {type(a).__name__} and the second a {type(b).__name__}")
    if check_types and isinstance(a, dict) and set(a) != set(b):
        raise ValueError(f"The two dictionaries don't have the same set of keys: {where}, "
                         f"the first has keys {_nest.sorted_keys(a)} and the second "
                         f"{_nest.sorted_keys(b)}")
    a_children, b_children = _nest.children(a), _nest.children(b)
    if len(a_children) != len(b_children):
        raise ValueError(f"The two structures don't have the same number of elements: "
                         f"{where}, the first has {len(a_children)} and the second "
                         f"{len(b_children)}")
    for key, x, y in zip(_keys(a), a_children, b_children):
        _compare(x, y, check_types, expand_composites, f"{path}[{key!r}]")


def _same_type(a, b):
    if type(a) is type(b):
        return True
    if _is_namedtuple(a) and _is_namedtuple(b):
        return type(a).__name__ == type(b).__name__ and a._fields == b._fields
    return (isinstance(a, list) and isinstance(b, list)) or (
        isinstance(a, dict) and isinstance(b, dict))


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _keys(value):
    """How a child of `value` is named in a path: its key, else its position."""
    if isinstance(value, dict):
        return _nest.sorted_keys(value)
    return range(len(_nest.children(value)))


def _describe(value, nested):
    if nested:
        return f"a {type(value).__name__} (a nested structure)"
    return f"an atom ({type(value).__name__}: {_short(value)})"


def _skeleton(value, expand_composites):
    """`value` printed with its atoms as '.' (as TensorFlow prints a structure)."""
    if not _nest.is_nested(value, expand_composites):
        return "."
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {_skeleton(item, expand_composites)}"
                               for key, item in value.items()) + "}"
    parts = [_skeleton(child, expand_composites) for child in _nest.children(value)]
    inner = ", ".join(parts)
    if isinstance(value, list):
        return f"[{inner}]"
    if _is_namedtuple(value) or _nest.is_composite(value):
        return f"{type(value).__name__}({inner})"
    return f"({inner},)" if len(parts) == 1 else f"({inner})"


def _short(value, limit=100):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
