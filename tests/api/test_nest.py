"""ag.nest: tf.nest's flatten, pack_sequence_as, map_structure, assert_same_structure and
is_nested, with TensorFlow's semantics (None and strings are atoms, dict values in sorted
key order, check_types), on Python values and on tensors in every mode."""

import collections

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

Point = collections.namedtuple("Point", "x y")


def _point_like_another_module():
    return collections.namedtuple("Point", "x y")  # same name and fields, another class


# structure -> its atoms in tf.nest's order, written out.
FLATTENED = [
    (None, [None]),
    ([None, 1, (None,)], [None, 1, None]),
    ("abc", ["abc"]),
    ({"b": 1, "a": 2, "c": {"z": 3, "y": 4}}, [2, 1, 4, 3]),
    (collections.OrderedDict([("b", 1), ("a", 2)]), [2, 1]),
    ([Point(1, (2, 3)), [], ()], [1, 2, 3]),
    ({3: "three", 1: "one", 2.5: "two and a half"}, ["one", "two and a half", "three"]),
    ({1, 2}, [{1, 2}]),
]


@pytest.mark.parametrize("structure, atoms", FLATTENED)
def test_flatten_and_pack_back(structure, atoms):
    assert ag.nest.flatten(structure) == atoms
    packed = ag.nest.pack_sequence_as(structure, atoms)
    assert packed == structure and type(packed) is type(structure)


def test_numpy_arrays_and_tensors_are_atoms():
    array, tensor = np.ones((2, 2)), ag.ones([3])
    flat = ag.nest.flatten({"t": tensor, "a": array})
    assert flat[0] is array and flat[1] is tensor
    assert not ag.nest.is_nested(array) and not ag.nest.is_nested(tensor)
    assert ag.nest.is_nested([]) and ag.nest.is_nested({}) and ag.nest.is_nested(Point(1, 2))
    assert not ag.nest.is_nested(None) and not ag.nest.is_nested("ab")


def test_packing_keeps_the_structures_key_order():
    structure = {"key3": "", "key1": "", "key2": ""}
    packed = ag.nest.pack_sequence_as(structure, ["value1", "value2", "value3"])
    assert list(packed.items()) == [("key3", "value3"), ("key1", "value1"),
                                    ("key2", "value2")]


def test_an_ordered_dict_flattened_repacks_into_a_dict():
    ordered = collections.OrderedDict([("b", 1), ("a", 2)])
    assert ag.nest.pack_sequence_as({"a": 0, "b": 0}, ag.nest.flatten(ordered)) == {
        "a": 2, "b": 1}


def test_a_defaultdict_keeps_its_default_factory():
    counts = collections.defaultdict(list, {"a": 1, "b": 2})
    doubled = ag.nest.map_structure(lambda v: v * 2, counts)
    assert type(doubled) is collections.defaultdict and doubled.default_factory is list
    assert dict(doubled) == {"a": 2, "b": 4}


def test_map_structure_over_several_structures():
    result = ag.nest.map_structure(lambda a, b: (a, b), {"x": [1, None]}, {"x": [2, 3]})
    assert result == {"x": [(1, 2), (None, 3)]}  # None is an atom: func receives it
    assert ag.nest.map_structure(lambda x, y: x + y, 3, 4) == 7
    assert ag.nest.map_structure(lambda x: x + 1, ()) == ()


def test_map_structure_checks_types_unless_told_not_to():
    as_tuple, as_list = (((1, 2), 3), 4, (5, 6)), [[[1, 2], 3], 4, [5, 6]]
    with pytest.raises(TypeError, match="don't have the same sequence type: at the top "
                                        "level, the first is a tuple and the second a list"):
        ag.nest.map_structure(lambda x, y: None, as_tuple, as_list)
    result = ag.nest.map_structure(lambda x, y: x * y, as_tuple, as_list, check_types=False)
    assert result == (((1, 4), 9), 16, (25, 36))  # the first structure's types


def test_map_structure_refuses_bad_arguments():
    with pytest.raises(TypeError, match="func must be callable"):
        ag.nest.map_structure(1, [1])
    with pytest.raises(ValueError, match="at least one structure"):
        ag.nest.map_structure(lambda x: x)


@pytest.mark.parametrize("first, second, error, message", [
    ([1, [2, 3]], [1, [2]], ValueError,
     r"don't have the same number of elements: at \[1\], the first has 2 and the second 1"),
    ([0, 1], np.array([0, 1]), ValueError,
     r"don't have the same nested structure: at the top level, the first is a list "),
    ({"a": [1]}, {"a": 1}, ValueError,
     r"at \['a'\], the first is a list \(a nested structure\) and the second is an atom "
     r"\(int: 1\)"),
    ({"a": 1, "b": 2}, {"a": 1, "c": 2}, ValueError,
     r"don't have the same set of keys: at the top level, the first has keys \['a', 'b'\] "
     r"and the second \['a', 'c'\]"),
    (Point(1, 2), collections.namedtuple("Other", "x y")(1, 2), TypeError,
     "the first is a Point and the second a Other"),
    ((1, 2), [1, 2], TypeError, "the first is a tuple and the second a list"),
])
def test_assert_same_structure_says_where_and_shows_both(first, second, error, message):
    with pytest.raises(error, match=message) as raised:
        ag.nest.assert_same_structure(first, second)
    assert "Entire first structure:" in str(raised.value)
    assert "Entire second structure:" in str(raised.value)


def test_assert_same_structure_shows_atoms_as_dots():
    with pytest.raises(ValueError) as raised:
        ag.nest.assert_same_structure({"a": (1, [2])}, {"a": (1, [2, 3])})
    assert str(raised.value).endswith("Entire first structure:\n{'a': (., [.])}\n"
                                      "Entire second structure:\n{'a': (., [., .])}")


def test_assert_same_structure_passes_where_tensorflows_does():
    ag.nest.assert_same_structure(1.5, "abc")  # atoms of any types
    ag.nest.assert_same_structure(Point(1, 2), _point_like_another_module()(3, 4))
    ag.nest.assert_same_structure({"a": 1, "b": 2}, collections.OrderedDict(b=3, a=4))
    ag.nest.assert_same_structure((1, [2]), [3, (4,)], check_types=False)
    ag.nest.assert_same_structure(Point(1, 2), {"x": 1, "y": 2}, check_types=False)
    ag.nest.assert_same_structure({"a": 1}, {"b": 1}, check_types=False)
    ag.nest.assert_same_structure([None], [1])


def test_pack_sequence_as_refuses_wrong_counts_and_non_sequences():
    with pytest.raises(ValueError, match="the structure has 3 atoms but flat_sequence has "
                                         "2 items"):
        ag.nest.pack_sequence_as([1, (2, 3)], [4, 5])
    with pytest.raises(ValueError, match="the structure has 1 atoms but flat_sequence has 2"):
        ag.nest.pack_sequence_as("atom", [1, 2])
    assert ag.nest.pack_sequence_as("atom", [7]) == 7
    with pytest.raises(TypeError, match="flat_sequence must be a list or tuple of atoms, "
                                        "got int"):
        ag.nest.pack_sequence_as([1], 5)


def test_composites_are_atoms_unless_expanded():
    array = ag.TensorArray(ag.float32, size=2).write(0, 1.0)
    assert ag.nest.flatten([array]) == [array]
    values, written = ag.nest.flatten([array], expand_composites=True)
    np.testing.assert_array_equal(values.numpy(), [1.0, 0.0])
    np.testing.assert_array_equal(written.numpy(), [True, False])
    rebuilt, = ag.nest.pack_sequence_as([array], [values * 2, written], expand_composites=True)
    np.testing.assert_array_equal(rebuilt.read(0).numpy(), 2.0)
    assert ag.nest.map_structure(lambda a: a.size(), [array])[0].numpy() == 2


def _scaled_state(x):
    state = {"b": x, "a": (x * 2, [x + 1])}
    flat = ag.nest.flatten(state)
    shifted = ag.nest.map_structure(lambda v, w: v - w, state,
                                    ag.nest.pack_sequence_as(state, flat[::-1]))
    ag.nest.assert_same_structure(state, shifted)
    total = 0
    for value in ag.nest.flatten(shifted):
        if value > 0:
            total += value
    return total, shifted


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x", [3.0, -2.0])
def test_nest_in_converted_code_in_every_mode(mode, x):
    assert_same(_scaled_state(x), run_mode(mode, _scaled_state, (x,)))
