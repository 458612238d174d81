"""ag.TensorArray: its API against numpy, value semantics, the errors it promises, and its
use as a carried value of staged loops and branches in every mode (Python values, eager
tensors, placeholders + Session, ag.function), against plain-Python oracles."""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

ROWS = np.arange(12, dtype=np.float32).reshape(4, 3)


def test_write_read_stack_against_numpy():
    ta = ag.TensorArray(ag.float32, size=4)
    for i in (2, 0, 3, 1):
        ta = ta.write(i, ROWS[i])
    np.testing.assert_array_equal(ta.stack().numpy(), ROWS)
    np.testing.assert_array_equal(ta.read(2).numpy(), ROWS[2])
    np.testing.assert_array_equal(ta.gather([3, 1]).numpy(), ROWS[[3, 1]])
    np.testing.assert_array_equal(ta.concat().numpy(), ROWS.reshape(-1))
    assert ta.size().numpy() == 4 and ta.element_shape == (3,)


def test_unstack_scatter_split_and_identity():
    ta = ag.TensorArray(ag.float32, size=4).unstack(ROWS)
    np.testing.assert_array_equal(ta.stack().numpy(), ROWS)
    scattered = ag.TensorArray(ag.float32, size=4).scatter([3, 0], ROWS[:2])
    expected = np.zeros_like(ROWS)
    expected[[3, 0]] = ROWS[:2]
    np.testing.assert_array_equal(scattered.stack().numpy(), expected)
    split = ag.TensorArray(ag.float32, size=2).split(ROWS.reshape(-1), [6, 6])
    np.testing.assert_array_equal(split.stack().numpy(), ROWS.reshape(2, 6))
    np.testing.assert_array_equal(ta.identity().stack().numpy(), ROWS)


def test_writes_return_a_new_array_and_leave_the_old_one():
    empty = ag.TensorArray(ag.float32, size=2, element_shape=[3])
    one = empty.write(0, ROWS[0])
    two = one.write(1, ROWS[1])
    np.testing.assert_array_equal(empty.stack().numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(one.stack().numpy(), [ROWS[0], np.zeros(3)])
    np.testing.assert_array_equal(two.stack().numpy(), ROWS[:2])


def test_dynamic_size_grows_and_unwritten_rows_stack_as_zeros():
    ta = ag.TensorArray(ag.int32, size=0, dynamic_size=True).write(3, 7)
    assert ta.size().numpy() == 4
    np.testing.assert_array_equal(ta.stack().numpy(), [0, 0, 0, 7])


@pytest.mark.parametrize("action, error, words", [
    (lambda ta: ta.read(1), IndexError, "index 1, which was never written"),
    (lambda ta: ta.write(5, ROWS[0]), IndexError, "past its size 2; create it with "
                                                  "dynamic_size=True"),
    (lambda ta: ta.write(1, ROWS[0, :2]), ValueError, "has shape (2,) but the array's "
                                                      "elements have shape (3,)"),
    (lambda ta: ta.write(1, ag.constant([1, 2, 3])), TypeError, "dtype float32 cannot hold an "
                                                                "element of dtype int32"),
])
def test_errors_eagerly(action, error, words):
    ta = ag.TensorArray(ag.float32, size=2).write(0, ROWS[0])
    with pytest.raises(error, match=None) as info:
        action(ta)
    assert words in str(info.value)


def read_unwritten(n):
    ta = ag.TensorArray(ag.float32, size=3)
    for i in range(n):
        ta = ta.write(i, ag.cast(i, ag.float32))
    return ta.read(2)


def test_reading_an_unwritten_index_in_a_graph_names_the_users_line():
    with pytest.raises(IndexError) as info:
        ag.function(read_unwritten)(ag.constant(2))
    text = str(info.value)
    assert "index 2, which was never written" in text
    assert f"{__file__}:{read_unwritten.__code__.co_firstlineno + 4}" in text


def test_stack_with_nothing_written_needs_an_element_shape():
    with pytest.raises(ValueError, match="pass element_shape="):
        ag.TensorArray(ag.float32, size=2).stack()
    np.testing.assert_array_equal(
        ag.TensorArray(ag.float32, size=2, element_shape=[3]).stack().numpy(),
        np.zeros((2, 3)))


# --- carried through staged control flow, in every mode ---------------------------------


def squares(n):
    ta = ag.TensorArray(ag.float32, size=0, dynamic_size=True)
    for i in range(n):
        ta = ta.write(i, ag.cast(i * i, ag.float32))
    return ta.stack()


def squares_oracle(n):
    return [float(i * i) for i in range(n)]


def countdown(n):
    ta = ag.TensorArray(ag.int32, size=n)
    i = 0
    while i < n:
        ta = ta.write(i, n - i)
        i += 1
    return ta.stack()


def countdown_oracle(n):
    return [n - i for i in range(n)]


def table(n, m):
    ta = ag.TensorArray(ag.float32, size=n)
    for i in range(n):
        row = ag.TensorArray(ag.float32, size=m)
        for j in range(m):
            row = row.write(j, ag.cast(i * 10 + j, ag.float32))
        ta = ta.write(i, row.stack())
    return ta.stack()


def table_oracle(n, m):
    return [[float(i * 10 + j) for j in range(m)] for i in range(n)]


def even_odd(n):
    evens = ag.TensorArray(ag.int32, size=0, dynamic_size=True)
    count = 0
    for i in range(n):
        if i % 2 == 0:
            evens = evens.write(count, i)
            count += 1
    return evens.stack()


def even_odd_oracle(n):
    return [i for i in range(n) if i % 2 == 0]


def until_big(n):
    ta = ag.TensorArray(ag.int32, size=0, dynamic_size=True)
    for i in range(n):
        if i * i > 20:
            break
        ta = ta.write(i, i * i)
    return ta.stack()


def until_big_oracle(n):
    return [i * i for i in range(n) if i * i <= 20][:n]


CASES = [(squares, squares_oracle, (5,)), (countdown, countdown_oracle, (4,)),
         (table, table_oracle, (3, 4)), (even_odd, even_odd_oracle, (7,)),
         (until_big, until_big_oracle, (9,))]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, oracle, args", CASES, ids=[c[0].__name__ for c in CASES])
def test_carried_by_staged_loops(mode, fn, oracle, args):
    assert_same(np.asarray(oracle(*args)), run_mode(mode, fn, args))


def with_while_loop(x, n):
    ta = ag.TensorArray(ag.float32, size=n)

    def body(i, ta):
        return i + 1, ta.write(i, x * ag.cast(i, ag.float32))

    _, ta = ag.while_loop(lambda i, ta: i < n, body, [0, ta])
    return ta.stack()


def in_branches(flag, x):
    ta = ag.TensorArray(ag.float32, size=2)
    ta = ag.cond(flag, lambda: ta.write(0, x), lambda: ta.write(1, x + 1.0))
    return ta.stack()


@pytest.mark.parametrize("mode", MODES)
def test_while_loop_and_cond_carry_arrays(mode):
    x = [1.0, 2.0]
    expected = np.asarray([[i * v for v in x] for i in range(3)])
    assert_same(expected, run_mode(mode, with_while_loop, (x, 3)))
    for flag in (True, False):
        expected = [3.0, 0.0] if flag else [0.0, 4.0]
        assert_same(np.asarray(expected), run_mode(mode, in_branches, (flag, 3.0)))
