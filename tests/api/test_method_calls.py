"""`pop` and `append` on what is not a list (issue 24, family 3): converters/lists.py
rewrites `l.pop()`, `l.pop(i)` and `l.append(x)` into operators so that a list a staged
loop grows can be a TensorList; on every other object they must be that object's own
method, with its arguments and its return value: `dict.pop(key, default)`, `set.pop()`,
`deque.pop()`, a user class whose `pop` takes more. Each runs in every mode against the
function run as Python."""

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode
from tests.cli.fixtures.real_code_calls import (
    pop_from_set_and_deque,
    pop_from_user_class,
    pop_key_of_a_dict_argument,
    pop_nothing_from_a_list,
    pop_with_default,
)

pytestmark = pytest.mark.usefixtures("converted_path")


@pytest.mark.parametrize("mode", MODES + ("jax",))
@pytest.mark.parametrize("fn", [pop_with_default, pop_from_set_and_deque,
                                pop_from_user_class])
@pytest.mark.parametrize("x", [2, -2])
def test_pop_and_append_on_dicts_sets_deques_and_user_classes(fn, x, mode):
    assert_same(fn(x), run_mode(mode, fn, (x,)))


@pytest.mark.parametrize("d, key", [({"a": 1}, "a"), ({"a": 1}, "b")])
def test_dict_pop_of_an_argument(d, key):
    expected = pop_key_of_a_dict_argument(dict(d), key)
    assert ag.to_graph(pop_key_of_a_dict_argument)(dict(d), key) == expected


def test_a_pop_with_more_than_an_index_stays_a_method_call():
    code = ag.to_code(pop_with_default)
    assert 'ag__.converted(d.pop)("a", -1)' in code.replace("'", '"') and "list_pop" not in code


def test_a_lists_pop_gets_its_argument_as_written():
    with pytest.raises(TypeError) as expected:
        pop_nothing_from_a_list([1])
    with pytest.raises(TypeError) as converted:
        ag.to_graph(pop_nothing_from_a_list)([1])
    assert str(converted.value) == str(expected.value)
