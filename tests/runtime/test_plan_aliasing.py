"""A plan writes an op's result into a dying input's buffer (`out=`) only when no other
name can see that buffer: a view of it (reshape, transpose, a slice, identity,
stop_gradient, expand_dims, squeeze) or an If / While output that passes it through keeps
it from being reused. The oracle is the same function run eagerly (each op a new array).
Found by a gradient review: the in-place write changed the view, a silent wrong answer."""

import numpy as np
import pytest

import autograph_py as ag

VIEWS = {
    "stop_gradient": ag.stop_gradient,
    "identity": ag.identity,
    "reshape": lambda a: ag.reshape(a, [3]),
    "expand_dims": lambda a: ag.expand_dims(a, 0),
    "squeeze": lambda a: ag.squeeze(ag.expand_dims(a, 0)),
    "transpose": ag.transpose,
    "slice": lambda a: a[0:2],
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=list(VIEWS))
def test_a_view_is_not_overwritten_by_a_later_in_place_result(view):
    def h(x):
        a = x * 2.0
        b = view(a)
        c = a + 1.0  # a's last use
        return b, c

    x = ag.constant([1.0, 2.0, 3.0])
    for expected, found in zip(h(x), ag.function(h)(x)):
        np.testing.assert_array_equal(found.numpy(), expected.numpy())


def passes_through_a_branch(x, y):
    a = x * 2.0
    if y > 0.0:
        b = a
    else:
        b = a * 3.0
    c = b + 1.0
    return a, c


def passes_through_a_loop(x, n):
    s = x * 1.0
    a = s
    j = 0
    while j < n:  # no iteration: the loop's output is s itself
        a = ag.tanh(a) + a * 0.3
        j += 1
    return ag.reduce_sum(ag.tanh(s)) + ag.reduce_sum(a) * 2.0


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("fn, args", [
    (passes_through_a_branch, ([1.0, 2.0], 1.0)),
    (passes_through_a_branch, ([1.0, 2.0], -1.0)),
    (passes_through_a_loop, ([-0.5, 0.25], 0)),
    (passes_through_a_loop, ([-0.5, 0.25], 2)),
], ids=["branch passes it", "branch copies", "loop ran no iteration", "loop ran"])
def test_control_flow_outputs_that_pass_an_input_through(fn, args):
    tensors = [ag.constant(a) for a in args]
    expected = ag.to_graph(fn)(*tensors)  # eagerly: every op makes a new array
    found = ag.function(fn)(*tensors)
    for e, f in zip(_as_tuple(expected), _as_tuple(found)):
        np.testing.assert_allclose(f.numpy(), e.numpy(), rtol=1e-12)


def test_gradients_through_a_function_with_a_view_of_a_dying_value():
    def g(x):
        s = x
        i = 0
        while i < 3:
            s = s * ag.stop_gradient(s) + x
            i += 1
        return s

    def gradient(fn):
        x = ag.constant([0.3, -0.7, 1.2], ag.float64)
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x).numpy()

    np.testing.assert_allclose(gradient(ag.function(g)), gradient(g), rtol=1e-12)
