"""Nested structures: lists, tuples (namedtuples too), dicts and composites of leaves.

Contract: `flatten` lists the leaves depth-first (dicts in sorted key order, `sorted_keys`);
a composite (an object whose class defines `_nest_components()`, returning its tensors,
and `_nest_rebuild(components)`, as TensorFlow's CompositeTensor) is nested: its leaves
are its components, and rebuilding it keeps its Python-level metadata (with
`expand_composites=False`, `is_nested`, `flatten` and `pack_sequence_as` take it as a
leaf, tf.nest's default, which `ag.nest` keeps); `children` lists
the direct children of a nested value;
`pack_sequence_as(structure, leaves)` rebuilds the same structure from such a list;
`assert_same_structure` raises a ValueError that says where two structures differ.
"""

from collections import defaultdict

_COMPOSITE_TYPES = {}  # type -> whether it is a composite (asked once per type: hasattr
# on a class without the attribute raises and catches inside, a cost paid on every leaf)


def is_nested(value, expand_composites=True):
    """Whether `value` is a list, tuple, dict or (with `expand_composites`) composite."""
    return isinstance(value, (list, tuple, dict)) or expand_composites and is_composite(value)


def is_composite(value):
    cls = type(value)
    found = _COMPOSITE_TYPES.get(cls)
    if found is None:
        found = _COMPOSITE_TYPES[cls] = hasattr(cls, "_nest_components")
    return found


def children(value):
    if is_composite(value):
        return list(value._nest_components())
    if isinstance(value, dict):
        return [value[k] for k in sorted_keys(value)]
    return list(value)


def sorted_keys(mapping):
    """A dict's keys in TensorFlow's order (sorted); keys Python cannot compare with each
    other (TensorFlow refuses them) by their type's name, then themselves."""
    try:
        return sorted(mapping)
    except TypeError:
        return sorted(mapping, key=lambda key: (type(key).__name__, key))


def flatten(structure, expand_composites=True):
    if not is_nested(structure, expand_composites):
        return [structure]
    if type(structure) is list and not any(map(is_nested, structure)):
        return list(structure)  # a plain list of leaves, the common case
    leaves = []
    for child in children(structure):
        if is_nested(child, expand_composites):
            leaves.extend(flatten(child, expand_composites))
        else:
            leaves.append(child)
    return leaves


def _rebuild(structure, values):
    if is_composite(structure):
        return structure._nest_rebuild(values)
    if isinstance(structure, dict):
        # Leaves come in sorted key order; the result keeps the structure's own order.
        by_key = dict(zip(sorted_keys(structure), values))
        rebuilt = (type(structure)(structure.default_factory)
                   if isinstance(structure, defaultdict) else type(structure)())
        rebuilt.update((k, by_key[k]) for k in structure)
        return rebuilt
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*values)
    return type(structure)(values)


def pack_sequence_as(structure, flat, expand_composites=True):
    flat = list(flat)
    if type(structure) is list and len(structure) == len(flat) and \
            not any(map(is_nested, structure)):
        return flat  # a plain list of leaves, the common case
    packed, used = _pack(structure, flat, 0, expand_composites)
    if used != len(flat):
        raise ValueError(f"structure has {used} leaves but {len(flat)} values were given")
    return packed


def _pack(structure, flat, start, expand_composites):
    if not is_nested(structure, expand_composites):
        return flat[start], start + 1
    packed_children = []
    for child in children(structure):
        if is_nested(child, expand_composites):
            packed, start = _pack(child, flat, start, expand_composites)
        else:
            packed = flat[start]
            start += 1
        packed_children.append(packed)
    return _rebuild(structure, packed_children), start


def map_structure(fn, structure, *others):
    for other in others:
        assert_same_structure(structure, other)
    flat = [flatten(s) for s in (structure, *others)]
    return pack_sequence_as(structure, [fn(*leaves) for leaves in zip(*flat)])


def assert_same_structure(a, b, path="value"):
    if is_nested(a) != is_nested(b):
        nested, other = (a, b) if is_nested(a) else (b, a)
        raise ValueError(f"{path}: one is a nested structure ({_kind(nested)}) and the other "
                         f"is not ({_kind(other)})")
    if not is_nested(a):
        return
    if is_composite(a) or is_composite(b):
        if type(a) is not type(b):
            raise ValueError(f"{path}: {_kind(a)} vs {_kind(b)}")
        a, b = children(a), children(b)
    elif isinstance(a, dict) != isinstance(b, dict):
        raise ValueError(f"{path}: {_kind(a)} vs {_kind(b)}")
    if isinstance(a, dict):
        if set(a) != set(b):
            raise ValueError(f"{path}: dict keys differ: {sorted_keys(a)} vs "
                             f"{sorted_keys(b)}")
        for k in sorted_keys(a):
            assert_same_structure(a[k], b[k], f"{path}[{k!r}]")
        return
    if len(a) != len(b):
        raise ValueError(f"{path}: lengths differ ({len(a)} vs {len(b)})")
    for i, (x, y) in enumerate(zip(a, b)):
        assert_same_structure(x, y, f"{path}[{i}]")


def _kind(value):
    return type(value).__name__
