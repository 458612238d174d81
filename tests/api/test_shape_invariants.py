"""Loop variables whose shape changes: `ag.set_loop_options(shape_invariants=...)` (and
TensorFlow's spelling `ag.autograph.experimental.set_loop_options`), `ag.while_loop(...,
shape_invariants=...)`, the errors without or against an invariant, and
`ag.set_element_type`. Results are checked in every mode against plain Python."""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

STAGED = ("graph", "function")


def grow(n):
    v = ag.constant([1.0])
    for i in range(n):
        ag.set_loop_options(shape_invariants=[(v, [None])])
        v = ag.concat([v, [ag.cast(i, ag.float32)]], 0)
    return v


def grow_oracle(n):
    v = [1.0]
    for i in range(n):
        v = v + [float(i)]
    return v


def grow_rows(n):
    m = ag.zeros([0, 3])
    i = 0
    while i < n:
        ag.autograph.experimental.set_loop_options(shape_invariants=[(m, [None, 3])])
        m = ag.concat([m, ag.ones([1, 3]) * ag.cast(i, ag.float32)], 0)
        i += 1
    return m


def grow_rows_oracle(n):
    return [[float(i)] * 3 for i in range(n)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [0, 3])
def test_a_growing_vector_and_growing_rows_with_their_invariants(mode, n):
    assert_same(np.asarray(grow_oracle(n)), run_mode(mode, grow, (n,)))
    expected = np.asarray(grow_rows_oracle(n)).reshape(n, 3)
    assert_same(expected, run_mode(mode, grow_rows, (n,)))


def grow_without_invariant(n):
    v = ag.constant([1.0])
    for i in range(n):
        v = ag.concat([v, [ag.cast(i, ag.float32)]], 0)
    return v


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_without_an_invariant_python_and_eager_runs_are_plain_python(mode):
    assert_same(np.asarray(grow_oracle(3)), run_mode(mode, grow_without_invariant, (3,)))


def _message(error):
    return str(error) + "\n".join(getattr(error, "__notes__", []))


@pytest.mark.parametrize("mode", STAGED)
def test_without_an_invariant_a_shape_change_names_the_variable_and_the_fix(mode):
    with pytest.raises(ValueError) as info:
        run_mode(mode, grow_without_invariant, (3,))
    text = _message(info.value)
    assert "'v' has shape (1,) before the loop but (2,) after one iteration" in text
    assert "ag.set_loop_options(shape_invariants=[(v, [None])])" in text
    line = grow_without_invariant.__code__.co_firstlineno + 2
    assert f'{__file__}", line {line}' in text


def grow_against_invariant(n):
    m = ag.zeros([2, 0])
    for _ in range(n):
        ag.set_loop_options(shape_invariants=[(m, [2, None])])
        m = ag.concat([m, ag.ones([1, 0])], 0)  # grows rows, the invariant fixes them
    return m


def enter_against_invariant(n):
    v = ag.zeros([2, 3])
    for _ in range(n):
        ag.set_loop_options(shape_invariants=[(v, [None, 2])])
        v = v + 1.0
    return v


@pytest.mark.parametrize("mode", STAGED)
def test_a_change_the_invariant_does_not_allow_is_an_error(mode):
    with pytest.raises(ValueError, match=r"'m' has shape \(3, 0\) after an iteration, which "
                                         r"its shape invariant \(2, None\) does not allow"):
        run_mode(mode, grow_against_invariant, (2,))
    with pytest.raises(ValueError, match=r"'v' enters the loop with shape \(2, 3\), which its "
                                         r"shape invariant \(None, 2\) does not allow"):
        run_mode(mode, enter_against_invariant, (2,))


def not_a_loop_variable(n):
    v = ag.constant([1.0])
    w = ag.constant([2.0])
    for _ in range(n):
        ag.set_loop_options(shape_invariants=[(w, [None])])
        v = ag.concat([v, v], 0)
    return v


def test_an_invariant_for_a_value_the_loop_does_not_carry_is_an_error():
    with pytest.raises(ValueError, match="is not the value of a variable the loop changes"):
        run_mode("function", not_a_loop_variable, (2,))


def doubling(x, n):
    def body(i, v):
        return i + 1, ag.concat([v, v], 0)

    x = ag.convert_to_tensor(x)
    return ag.while_loop(lambda i, v: i < n, body, [0, x],
                         shape_invariants=[None, [None]])[1]


def doubling_without(x, n):
    return ag.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, ag.concat([v, v], 0)),
                         [0, x])[1]


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_shape_invariants(mode):
    assert_same(np.asarray([2.0] * 8), run_mode(mode, doubling, ([2.0], 3)))


def test_while_loop_without_invariant_names_the_bodys_parameter():
    with pytest.raises(ValueError, match=r"'v' has shape \(1,\) before the loop but \(2,\)"):
        ag.function(doubling_without)(ag.constant([2.0]), ag.constant(3))


def typed_list(n):
    values = []
    ag.set_element_type(values, ag.float32, shape=[2])
    for i in range(n):
        if i > 1:
            values.append(ag.ones([2]) * ag.cast(i, ag.float32))
    return ag.stack(values)


@pytest.mark.parametrize("mode", STAGED)
@pytest.mark.parametrize("n", [0, 4])
def test_set_element_type_lets_a_staged_loop_grow_an_empty_list(mode, n):
    expected = np.asarray([[float(i)] * 2 for i in range(n) if i > 1]).reshape(-1, 2)
    result = run_mode(mode, typed_list, (n,))
    assert result.dtype == np.float32
    assert_same(expected, result)


def test_set_element_type_keeps_python_lists_in_python():
    def append_all(n):
        values = []
        ag.set_element_type(values, ag.int32)
        for i in range(n):
            values.append(i)
        return values

    assert ag.to_graph(append_all)(3) == append_all(3) == [0, 1, 2]
