"""py_builtins overloads, list operations and the Undefined sentinels."""

import builtins

import autograph_py.runtime.operators as ag__
import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.core import constant, convert_to_tensor, placeholder
from autograph_py.runtime.session import Session
from test_operators_support import in_three_modes, staged

# --- Undefined / ld ---------------------------------------------------------------------


@pytest.mark.parametrize("use", [
    lambda u: u + 1, lambda u: 2 * u, lambda u: u.attr, lambda u: bool(u), lambda u: iter(u),
    lambda u: u(), lambda u: u[0], lambda u: u < 1, lambda u: f"{u}", lambda u: -u,
])
def test_any_use_of_undefined_names_the_symbol(use):
    with pytest.raises(UnboundLocalError, match="'total'"):
        use(ag__.Undefined("total"))


def test_ld():
    assert ag__.ld(3) == 3
    with pytest.raises(UnboundLocalError, match="local variable 'x'"):
        ag__.ld(ag__.Undefined("x"))
    assert repr(ag__.Undefined("x")) == "Undefined('x')"
    assert repr(ag__.UndefinedReturnValue()) == "UndefinedReturnValue()"


# --- lists --------------------------------------------------------------------------------


def test_python_lists_are_mutated_in_place():
    items = [1]
    assert ag__.list_append(items, 2) is items and items == [1, 2]
    assert ag__.list_pop(items) == (items, 2) and items == [1]
    assert ag__.list_pop([5, 6, 7], 0) == ([6, 7], 5)
    assert ag__.new_list((1, 2)) == [1, 2]
    np.testing.assert_array_equal(ag__.list_stack([constant(1), 2]).numpy(), [1, 2])


def test_pop_on_anything_else_is_its_own_pop():
    d = {"a": 1}
    assert ag__.list_pop(d, "b", 0) == (d, 0) and ag__.list_pop(d, "a") == ({}, 1)
    s = {3}
    assert ag__.list_pop(s) == (set(), 3)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        ag__.list_pop([1], None)  # as `[1].pop(None)`


def test_tensor_list_append_pop_stack_in_a_graph():
    with Graph().as_default() as graph:
        x = placeholder("float32", [None])
        rows = ag__.new_list(x)
        rows = ag__.list_append(rows, 7.0)
        rows, last = ag__.list_pop(rows)
        rows, first = ag__.list_pop(rows, 0)
        stacked = ag__.list_stack(rows)
        length = ag__.len_(rows)
    with Session(graph) as session:
        out = session.run([stacked, last, first, length, rows], {x: [1.0, 2.0, 3.0]})
    np.testing.assert_array_equal(out[0], [2.0, 3.0])
    assert out[1:4] == [7.0, 1.0, 2]
    np.testing.assert_array_equal(out[4], [2.0, 3.0])  # a TensorList fetches as its tensor


# --- builtins -----------------------------------------------------------------------------


def test_overloads_map_every_builtin():
    assert set(ag__.BUILTIN_OVERLOADS) == {builtins.len, builtins.range, builtins.enumerate,
                                           builtins.zip, builtins.abs, builtins.int,
                                           builtins.float, builtins.min, builtins.max,
                                           builtins.isinstance, builtins.sum, builtins.bool,
                                           builtins.next, builtins.iter, builtins.print}


def test_python_values_get_the_builtin_itself():
    assert ag__.range_(1, 5, 2) == range(1, 5, 2)
    assert list(ag__.enumerate_("ab", 1)) == [(1, "a"), (2, "b")]
    assert list(ag__.zip_([1, 2], "ab")) == [(1, "a"), (2, "b")]
    assert (ag__.len_([1, 2]), ag__.abs_(-2), ag__.int_("ff", 16), ag__.float_("1.5")) == \
        (2, 2, 255, 1.5)
    assert (ag__.max_([3, 1]), ag__.min_(3, 1, key=lambda v: -v)) == (3, 3)
    with pytest.raises(ValueError):
        ag__.max_([])


def test_eager_tensors_keep_builtin_semantics():
    assert ag__.len_(constant([[1, 2]] * 3)) == 3
    assert ag__.range_(constant(3)) == range(3)
    assert ag__.int_(constant(2.7)) == 2 and isinstance(ag__.int_(constant(2.7)), int)
    assert [(int(a), b) for a, b in ag__.zip_(constant([1, 2]), "xy")] == [(1, "x"), (2, "y")]
    with pytest.raises(TypeError):
        ag__.len_(constant(1.0))


@pytest.mark.parametrize("x", [-2.7, 3.2])
def test_numeric_builtins_in_three_modes(x):
    def build(v):
        return (ag__.abs_(v), ag__.int_(v), ag__.float_(ag__.int_(v)), ag__.max_(v, 0.0),
                ag__.min_(v, 0.0))

    expected = (abs(x), int(x), float(int(x)), max(x, 0.0), min(x, 0.0))
    for result in in_three_modes(build, x):
        np.testing.assert_allclose(result, expected, rtol=1e-6)


def test_max_min_of_one_tensor_reduce_its_first_axis():
    assert in_three_modes(lambda v: (ag__.max_(v), ag__.min_(v)), [3, 9, 1]) == \
        ((9, 1), (9, 1), (9, 1))


def test_len_of_symbolic_tensors_static_or_dynamic():
    with Graph().as_default() as graph:
        assert ag__.len_(placeholder("int32", [4, None])) == 4
        dynamic = ag__.len_(placeholder("int32", [None, 2], name="x"))
        with pytest.raises(TypeError, match="scalar"):
            ag__.len_(placeholder("int32", []))
        x = graph.get_tensor_by_name("x:0")
    with Session(graph) as session:
        assert session.run(dynamic, {x: np.zeros((5, 2))}) == 5


def test_symbolic_range_enumerate_zip_are_lazy():
    as_tensor = staged(lambda n: convert_to_tensor(ag__.range_(2, n, 3)), 10)
    assert as_tensor.tolist() == [2, 5, 8]
    assert staged(lambda n: ag__.len_(ag__.range_(n)), 4) == 4
    with Graph().as_default():
        n, xs = placeholder("int32", []), placeholder("int32", [None])
        for lazy in (ag__.range_(n), ag__.enumerate_(xs), ag__.zip_(xs, [1])):
            with pytest.raises(TypeError, match="converted code"):
                iter(lazy)
        with pytest.raises(TypeError, match="integer"):
            ag__.range_(placeholder("float32", []))


def test_isinstance_sees_staged_stand_ins_as_their_python_types():
    assert ag__.isinstance_(3, int) and not ag__.isinstance_(3, str)
    with Graph().as_default():
        n = placeholder("int32", [])
        assert ag__.isinstance_(ag__.range_(n), range)
        assert ag__.isinstance_(ag__.new_list(placeholder("int32", [None])), (tuple, list))
        assert ag__.isinstance_(ag__.zip_(ag__.range_(n)), zip)


def test_sum_of_a_list_grown_in_a_staged_loop_and_of_a_symbolic_tensor():
    from autograph_py.runtime.operators.lists import TensorList

    items = TensorList.from_items([1.0, 2.0, 3.5], 1.0)
    assert float(ag__.sum_(items)) == sum([1.0, 2.0, 3.5])
    assert ag__.sum_([1, 2, 3], 10) == 16  # Python values: the builtin
    graph = Graph()
    with graph.as_default():
        x = placeholder(dtypes.float32, shape=(3,))
        total = ag__.sum_(x, 1.0)
    with Session(graph) as session:
        assert session.run(total, {x: [1.0, 2.0, 3.0]}) == 7.0
