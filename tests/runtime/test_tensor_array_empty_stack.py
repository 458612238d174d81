"""A TensorArray filled by a loop that runs no iteration stacks to (0, *element_shape)
(issue 25, bug 2: greedy decoding with max_len=0 gave shape (0,)).

TensorFlow's rule (TensorListStack, and `_EagerTensorArray.stack`): an empty array stacks
to `(0, *element_shape)` when its element shape is fully known. In a graph the element
shape is also learnt from a write traced in a loop body that never runs (TF shares the
array's `_element_shape` with the arrays the loop rebuilds), so the staged modes give
`(0, 3)` there; eagerly nothing was written and nothing declared, so TF's eager array
gives `(0,)`, and so do we. An empty array whose element shape is only partly known
cannot be stacked (TF: "Tried to stack elements of an empty list with non-fully-defined
element_shape").

Oracle: numpy stacking the rows the plain-Python loop makes, with the element shape TF's
rule gives the empty case.
"""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import run_mode

STAGED = ("graph", "function")
ROW = [1.0, 2.0, 3.0]


def decode_declared(row, n):
    ta = ag.TensorArray(ag.float32, size=0, dynamic_size=True, element_shape=[3])
    for i in range(n):
        ta = ta.write(i, row * ag.cast(i, ag.float32))
    return ta.stack()


def decode_learnt(row, n):
    ta = ag.TensorArray(ag.float32, size=0, dynamic_size=True)
    for i in range(n):
        ta = ta.write(i, row * ag.cast(i, ag.float32))
    return ta.stack()


def decode_fixed_size(row, n):
    ta = ag.TensorArray(ag.float32, size=n)
    i = 0
    while i < n:
        ta = ta.write(i, row * ag.cast(i, ag.float32))
        i += 1
    return ta.stack()


def decode_with_while_loop(row, n):
    ta = ag.TensorArray(ag.float32, size=0, dynamic_size=True)

    def body(i, ta):
        return i + 1, ta.write(i, row * ag.cast(i, ag.float32))

    _, ta = ag.while_loop(lambda i, ta: i < n, body, [0, ta])
    return ta.stack()


def oracle(row, n, element_shape):
    """The rows the Python loop writes, stacked; no row: TF's (0, *element_shape)."""
    rows = [np.float32(i) * np.asarray(row, np.float32) for i in range(n)]
    return np.stack(rows) if rows else np.zeros((0, *element_shape), np.float32)


def check(fn, mode, n, element_shape):
    result = np.asarray(run_mode(mode, fn, (ROW, n)))
    expected = oracle(ROW, n, element_shape)
    assert result.shape == expected.shape, (mode, result.shape, expected.shape)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("mode", ("eager",) + STAGED)
@pytest.mark.parametrize("fn", [decode_declared, decode_fixed_size])
def test_a_declared_element_shape_stacks_an_empty_array_to_zero_rows_of_it(fn, mode, n):
    element_shape = (len(ROW),)
    if fn is decode_fixed_size:  # declared by no one: learnt in staged modes only
        element_shape = element_shape if mode in STAGED else ()
    check(fn, mode, n, element_shape)


@pytest.mark.parametrize("n", [0, 3])
@pytest.mark.parametrize("mode", STAGED)
@pytest.mark.parametrize("fn", [decode_learnt, decode_with_while_loop])
def test_a_shape_learnt_from_a_write_that_never_ran_is_used_in_graphs(fn, mode, n):
    check(fn, mode, n, (len(ROW),))


def test_eagerly_an_array_nothing_was_written_to_stacks_to_shape_0_as_tf():
    # TensorFlow's eager TensorArray knows no element shape here: (0,), float32.
    for fn in (decode_learnt, decode_with_while_loop):
        check(fn, "eager", 0, ())


def test_the_static_shape_and_the_run_agree():
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, [])
        stacked = ag.to_graph(decode_learnt)(ag.constant(ROW), n)
        with ag.Session() as sess:
            value = sess.run(stacked, {n: 0})
    assert stacked.shape.is_compatible_with(value.shape)
    assert stacked.shape[1:] == (3,) and value.shape == (0, 3)


@pytest.mark.parametrize("stage", [False, True])
def test_an_empty_array_with_a_partly_known_element_shape_cannot_be_stacked(stage):
    def stack_empty():
        return ag.TensorArray(ag.float32, size=0, element_shape=[None, 3]).stack()

    with pytest.raises(ValueError, match=r"element_shape \(None, 3\) is not fully known"):
        if stage:
            ag.function(stack_empty)()
        else:
            stack_empty()
