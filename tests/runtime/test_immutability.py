"""Tensors are immutable (DESIGN.md §3): what the user hands in is copied (or shared when
nothing can write to it), what the runtime hands out cannot be written.

The oracle is a copy of the user's array taken before it is overwritten: the tensor, the
Variable or the compiled function must keep giving that value.
"""

import numpy as np
import pytest

import autograph_py as ag
from tests.trace_time import append_warning, expect_trace_time

READ_ONLY = "assignment destination is read-only"


def user_array():
    return np.arange(6, dtype=np.float32).reshape(2, 3)


def test_writing_the_input_array_does_not_change_an_eager_constant():
    array = user_array()
    expected = array.copy()
    t = ag.constant(array)
    array[:] = -1.0
    np.testing.assert_array_equal(t.numpy(), expected)
    np.testing.assert_array_equal((t + 0.0).numpy(), expected)


def test_writing_the_input_array_does_not_change_a_graph_constant():
    array = user_array()
    expected = array.copy()
    with ag.Graph().as_default() as g:
        c = ag.constant(array)
        doubled = c * 2.0
    array[:] = -1.0
    with ag.Session(g) as sess:
        np.testing.assert_array_equal(sess.run(doubled), expected * 2.0)


def test_writing_a_captured_array_does_not_change_an_already_compiled_function():
    array = user_array()
    expected = array.copy()
    captured = ag.constant(array)
    traces = []

    @ag.function
    def plus_both(x):
        traces.append(x)  # Python side effect: runs when tracing only
        return x + captured + ag.constant(array)  # a tensor, and the array itself

    x = ag.constant(np.ones((2, 3), np.float32))
    with expect_trace_time(append_warning(plus_both, "traces")):  # counts traces on purpose
        np.testing.assert_array_equal(plus_both(x).numpy(), 1.0 + 2 * expected)
    array[:] = -1.0
    np.testing.assert_array_equal(plus_both(x).numpy(), 1.0 + 2 * expected)
    assert len(traces) == 1


def test_writing_the_input_array_does_not_change_a_variable():
    initial, assigned = user_array(), user_array() + 10.0
    v = ag.Variable(initial)
    initial[:] = -1.0
    np.testing.assert_array_equal(v.numpy(), user_array())
    v.assign(assigned)
    assigned[:] = -1.0
    np.testing.assert_array_equal(v.numpy(), user_array() + 10.0)


def test_a_function_argument_assigned_to_a_variable_is_not_shared_with_it():
    v = ag.Variable(np.zeros((2, 3), np.float32))

    @ag.function
    def store(x):
        v.assign(x)

    argument = user_array()
    store(argument)
    argument[:] = -1.0
    np.testing.assert_array_equal(v.numpy(), user_array())


def test_variable_numpy_is_a_copy_and_reads_are_read_only():
    v = ag.Variable(user_array())
    snapshot = v.numpy()
    snapshot[:] = -1.0  # the caller's own copy: writable, and the Variable keeps its value
    np.testing.assert_array_equal(v.numpy(), user_array())
    with pytest.raises(ValueError, match=READ_ONLY):
        v.read_value().numpy()[0, 0] = 5.0
    np.testing.assert_array_equal(v.numpy(), user_array())


def test_numpy_and_asarray_give_read_only_views():
    t = ag.constant(user_array())
    product = t * 1.0
    for view in (t.numpy(), np.asarray(t), product.numpy(), np.asarray(product)):
        with pytest.raises(ValueError, match=READ_ONLY):
            view[0, 0] = 5.0
    np.testing.assert_array_equal(t.numpy(), user_array())
    np.testing.assert_array_equal(product.numpy(), user_array())


def test_the_view_of_a_constant_cannot_be_made_writable_again():
    view = ag.constant(user_array()).numpy()
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag"):
        view.flags.writeable = True


def test_asking_numpy_for_a_copy_gives_a_writable_array():
    t = ag.constant(user_array())
    for copy in (np.array(t), np.asarray(t, dtype=np.float64), t.numpy().copy()):
        copy[0, 0] = 5.0
    np.testing.assert_array_equal(t.numpy(), user_array())


def test_an_array_nothing_can_write_to_is_shared_not_copied():
    frozen = user_array().copy()  # owns its memory (user_array() views an arange)
    frozen.flags.writeable = False
    assert np.shares_memory(ag.constant(frozen).numpy(), frozen)
    # A read-only view of a writable array is not safe: its base can still change.
    base = user_array()
    view = base[:]
    view.flags.writeable = False
    t = ag.constant(view)
    assert not np.shares_memory(t.numpy(), base)
    base[:] = -1.0
    np.testing.assert_array_equal(t.numpy(), user_array())


def test_a_fetched_constant_or_variable_cannot_be_written_through_the_session():
    with ag.Graph().as_default() as g:
        c = ag.constant(user_array())
        v = ag.Variable(user_array())
    with ag.Session(g) as sess:
        for fetched in sess.run([c, v]):
            with pytest.raises(ValueError, match=READ_ONLY):
                fetched[0, 0] = 5.0
        np.testing.assert_array_equal(sess.run(c), user_array())
        np.testing.assert_array_equal(sess.run(v), user_array())


def test_a_fed_array_assigned_to_a_graph_variable_is_not_shared_with_it():
    with ag.Graph().as_default() as g:
        v = ag.Variable(np.zeros((2, 3), np.float32))
        p = ag.placeholder(ag.float32, [2, 3])
        assign = v.assign(p)
    fed = user_array()
    with ag.Session(g) as sess:
        sess.run(assign, {p: fed})
        fed[:] = -1.0
        np.testing.assert_array_equal(sess.run(v), user_array())


def test_a_function_result_does_not_share_memory_with_a_numpy_argument():
    @ag.function
    def passthrough(x):
        return ag.reshape(x, [6])

    argument = user_array()
    result = passthrough(argument)
    argument[:] = -1.0
    np.testing.assert_array_equal(result.numpy(), user_array().reshape(6))


def test_a_concrete_function_result_does_not_share_memory_with_a_numpy_argument():
    def passthrough(x):
        return ag.reshape(x, [6])

    argument = user_array()
    concrete = ag.function(passthrough).get_concrete_function(
        ag.TensorSpec(argument.shape, ag.as_dtype(argument.dtype)))
    result = concrete(argument)
    argument[:] = -1.0
    np.testing.assert_array_equal(result.numpy(), user_array().reshape(6))
