"""`ag.gather` takes indices in [0, size) only, TensorFlow's rule, in every mode (issue 25,
bug 6: `ag.gather(t, -1)` returned the last element where TensorFlow raises).

The oracle is TensorFlow's documented behaviour: tf.gather's `indices` "must be in range
[0, params.shape[axis])"; on CPU an index outside it is an InvalidArgumentError whose
message names the first bad index by its position in `indices` and the range:
"indices = -1 is not in [0, 4) [Op:GatherV2]" (tensorflow/tensorflow#35729) for a scalar,
"indices[27,4,0] = -1 is not in [0, 31488)" (tensorflow/tensor2tensor#76) otherwise.
Under XLA TensorFlow clamps instead; here the compiled call raises the same error when it
returns, as its other checks do. The error is also an IndexError (Python's type for an
index out of range). In-range results are checked against `np.take`; Python's negative
indexing (`t[-1]`, a strided slice, and `l[-1]` on a list grown in a staged loop) keeps
working and is checked against Python.
"""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import JIT_MODES, MODES, run_mode

STAGED = ("eager", "graph", "function", "jit_compile")
ITEMS = [10.0, 20.0, 30.0, 40.0]


def pick(x, i):
    return ag.gather(x, i)


def pick_rows(x, i):
    return ag.gather(x, i, axis=1)


def summed_from(x, start):
    total = 0.0
    i = start
    while i < 3:
        total += ag.gather(x, i)
        i += 1
    return total


def pick_when(x, i, flag):
    return ag.gather(x, i) if flag else x[0]


def last_item(x):
    return x[-1]


def last_appended(n):
    items = []
    for i in range(n):
        items.append(i * 10)
    return items[-1], items[-2]


@pytest.mark.parametrize("mode", STAGED)
@pytest.mark.parametrize("index", [0, 3])
def test_indices_in_range_read_as_np_take(mode, index):
    np.testing.assert_array_equal(run_mode(mode, pick, (ITEMS, index)),
                                  np.take(np.float32(ITEMS), index))
    matrix = np.arange(12, dtype=np.float32).reshape(3, 4)
    indices = np.asarray([[index, 0], [1, index]], np.int32)
    np.testing.assert_array_equal(
        run_mode(mode, pick_rows, (ag.constant(matrix), ag.constant(indices))),
        np.take(matrix, indices, axis=1))


@pytest.mark.parametrize("mode", STAGED)
@pytest.mark.parametrize("index", [-1, -4, 4, 7])
def test_an_index_outside_0_size_is_tfs_invalid_argument_error(mode, index):
    with pytest.raises(ag.InvalidArgumentError,
                       match=rf"indices = {index} is not in \[0, {len(ITEMS)}\)") as info:
        run_mode(mode, pick, (ITEMS, index))
    assert isinstance(info.value, IndexError)
    if mode != "eager":  # staged: the op and the user's line
        assert f"op 'GatherV2' (GatherV2) created at {__file__}:" in str(info.value)


@pytest.mark.parametrize("mode", STAGED)
def test_the_message_names_the_first_bad_index_by_its_position(mode):
    matrix = ag.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    indices = ag.constant(np.asarray([[0, 3], [-2, 9]], np.int32))
    with pytest.raises(ag.InvalidArgumentError, match=r"indices\[1,0\] = -2 is not in \[0, 4\)"):
        run_mode(mode, pick_rows, (matrix, indices))


@pytest.mark.parametrize("mode", STAGED)
def test_a_loop_reaching_a_negative_index_raises_where_python_would_read_from_the_end(mode):
    items = ag.constant(np.float32(ITEMS))
    assert float(run_mode(mode, summed_from, (items, 0))) == sum(ITEMS[:3])
    with pytest.raises(ag.InvalidArgumentError, match=r"indices = -2 is not in \[0, 4\)"):
        run_mode(mode, summed_from, (items, -2))


@pytest.mark.parametrize("mode", STAGED)
def test_a_branch_not_taken_never_raises_and_messages_do_not_go_stale(mode):
    items = ag.constant(np.float32(ITEMS))
    assert float(run_mode(mode, pick_when, (items, -1, False))) == ITEMS[0]
    for index in (9, -1):  # not -1, from the branch not taken above: each call's own index
        with pytest.raises(ag.InvalidArgumentError, match=rf"indices = {index} is not in"):
            run_mode(mode, pick_when, (items, index, True))
    assert float(run_mode(mode, pick_when, (items, 2, True))) == ITEMS[2]


def test_one_compiled_function_reports_each_calls_own_bad_index():
    f = ag.function(pick_when, jit_compile=True)
    items, taken = ag.constant(np.float32(ITEMS)), ag.constant(True)
    # -1 in the branch not taken (both are computed, then selected) is never reported
    assert float(f(items, ag.constant(-1), ag.constant(False))) == ITEMS[0]
    for index in (5, -1, -3):
        with pytest.raises(ag.InvalidArgumentError, match=rf"indices = {index} is not in"):
            f(items, ag.constant(index), taken)
        assert float(f(items, ag.constant(1), taken)) == ITEMS[1]


@pytest.mark.parametrize("mode", JIT_MODES)
def test_python_negative_indexing_of_a_tensor_still_reads_from_the_end(mode):
    assert float(run_mode(mode, last_item, (ITEMS,))) == ITEMS[-1]


@pytest.mark.parametrize("mode", MODES)
def test_negative_indexing_of_a_list_grown_in_a_staged_loop_still_reads_from_the_end(mode):
    expected = last_appended(5)  # the oracle: plain Python
    assert tuple(int(v) for v in run_mode(mode, last_appended, (5,))) == expected
