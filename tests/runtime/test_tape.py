"""GradientTape: watching, sources and targets of any structure, unconnected sources,
persistence, nested tapes (higher derivatives), Variables, non-differentiable dtypes,
and a tape used while a graph is being built."""

import autograph_py.runtime.tensor_operators  # noqa: F401  (Python operators on tensors)
import numpy as np
import pytest
from autograph_py.runtime import context, dtypes
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import cast
from autograph_py.runtime.ops.core import constant, placeholder, stop_gradient
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.session import Session
from autograph_py.runtime.variables import Variable


def test_seed_example():
    w = Variable([[1.0]])
    with GradientTape() as tape:
        loss = w * w + 2. * w + 5.
    grad = tape.gradient(loss, w)
    assert str(grad) == "Tensor([[4.]], shape=(1, 1), dtype=float32)"


def test_watched_tensor_and_non_scalar_target_is_summed():
    x = constant([1.0, 2.0, 3.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0, 6.0])


def test_unwatched_tensor_gets_none():
    x = constant(2.0)
    with GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_an_unwatched_source_of_a_kept_op_gets_its_gradient_as_in_tensorflow():
    # Issue 25, bug 4: the op is kept because of the Variable; TensorFlow's backward pass
    # computes the gradient of each input asked for as a source (tape.h's
    # unneeded_gradients), so it returns w here, and None for x * x alone (above).
    w, x = Variable(3.0), constant(2.0)
    with GradientTape() as tape:
        y = w * x
    assert float(tape.gradient(y, x)) == float(w.numpy())


def test_nested_sources_keep_their_structure():
    x, y = constant(2.0), constant(3.0)
    v = Variable(4.0)
    with GradientTape() as tape:
        tape.watch([x, y])
        z = x * y * v
    grads = tape.gradient(z, {"a": x, "b": [y, (v,)]})
    assert set(grads) == {"a", "b"}
    assert float(grads["a"]) == 12.0
    assert float(grads["b"][0]) == 8.0
    assert isinstance(grads["b"][1], tuple) and float(grads["b"][1][0]) == 6.0


def test_several_targets_add_up():
    x = constant(3.0)
    with GradientTape() as tape:
        tape.watch(x)
        a, b = x * x, x * 2.0
    assert float(tape.gradient([a, b], x)) == 8.0


def test_output_gradients_weight_the_target():
    x = constant([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    grad = tape.gradient(y, x, output_gradients=constant([10.0, 100.0]))
    np.testing.assert_allclose(grad.numpy(), [20.0, 400.0])


def test_unconnected_gradients():
    x, u = constant(1.0), constant([1.0, 2.0])
    with GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = x * 2.0
    assert tape.gradient(y, u) is None
    np.testing.assert_array_equal(tape.gradient(y, u, unconnected_gradients="zero").numpy(),
                                  [0.0, 0.0])
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, u, unconnected_gradients="nothing")


def test_non_persistent_tape_computes_once():
    x = constant(1.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape.*persistent=True"):
        tape.gradient(y, x)


def test_persistent_tape_computes_many_times():
    x = constant(3.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 27.0


def test_second_and_third_derivatives_with_nested_tapes():
    x = constant(2.0)
    with GradientTape() as t3:
        t3.watch(x)
        with GradientTape() as t2:
            t2.watch(x)
            with GradientTape() as t1:
                t1.watch(x)
                y = x * x * x
            dy = t1.gradient(y, x)
        d2y = t2.gradient(dy, x)
    d3y = t3.gradient(d2y, x)
    assert (float(dy), float(d2y), float(d3y)) == (12.0, 12.0, 6.0)


def test_gradient_inside_the_recording_block_is_recorded_by_outer_tapes_only():
    x = constant(1.5)
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape(persistent=True) as inner:
            inner.watch(x)
            y = m.exp(x)
            dy = inner.gradient(y, x)  # inside its own block: not recorded on `inner`
        assert len(inner._nodes) == 1
    np.testing.assert_allclose(float(outer.gradient(dy, x)), np.exp(1.5), rtol=1e-6)


def test_trainable_variables_are_watched_when_read():
    trainable, frozen = Variable(2.0), Variable(3.0, trainable=False)
    with GradientTape() as tape:
        y = trainable * frozen
    assert tape.watched_variables() == (trainable,)
    g_trainable, g_frozen = tape.gradient(y, [trainable, frozen])
    assert float(g_trainable) == 3.0 and g_frozen is None


def test_watch_accessed_variables_false_watches_only_what_is_asked():
    v, w = Variable(2.0), Variable(3.0)
    with GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = v * w
    gv, gw = tape.gradient(y, [v, w])
    assert gv is None and float(gw) == 2.0


def test_variable_read_several_times_sums_the_reads():
    v = Variable(3.0)
    with GradientTape() as tape:
        y = v * v + v
    assert float(tape.gradient(y, v)) == 7.0


def test_integer_and_bool_values_stop_gradients_without_error():
    x = constant(2.0)
    i = constant(3)
    with GradientTape() as tape:
        tape.watch([x, i])
        y = x * cast(i * 2, dtypes.float32) + cast(cast(x, dtypes.int32), dtypes.float32)
    gx, gi = tape.gradient(y, [x, i])
    assert float(gx) == 6.0 and gi is None


def test_stop_gradient_and_stop_recording():
    x = constant(2.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = stop_gradient(x * x) * x
        with tape.stop_recording():
            z = x * x
    assert float(tape.gradient(y, x)) == 4.0
    assert tape.gradient(z, x) is None
    assert not any(t is tape for t in context.tape_stack())


def test_watch_rejects_non_tensors():
    with GradientTape() as tape, pytest.raises(TypeError, match="watch"):
        tape.watch("x")


def test_sources_must_be_tensors_or_variables():
    x = constant(1.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(TypeError, match="sources must be tensors or Variables"):
        tape.gradient(y, [1.0])


def test_tape_records_nothing_when_nothing_is_watched():
    x = constant(np.ones(3))
    with GradientTape(watch_accessed_variables=False) as tape:
        for _ in range(10):
            x = x * 2.0
    assert tape._nodes == []


def test_tape_while_building_a_graph_builds_gradient_ops():
    v = Variable(np.array([1.0, 2.0]))
    with Graph().as_default() as graph:
        x = placeholder(dtypes.float64, [2])
        with GradientTape() as tape:
            tape.watch(x)
            y = reduce_sum(x * x * v)
        gx, gv = tape.gradient(y, [x, v])
        assert gx.graph is graph and gv.graph is graph
        with Session() as session:
            got_x, got_v = session.run([gx, gv], {x: [3.0, 4.0]})
    np.testing.assert_allclose(got_x, [6.0, 16.0])
    np.testing.assert_allclose(got_v, [9.0, 16.0])


def test_eager_tape_ignores_graph_ops_and_graph_tape_ignores_eager_ops():
    x = constant(2.0)
    with GradientTape() as eager_tape:
        eager_tape.watch(x)
        with Graph().as_default():
            placeholder(dtypes.float32, []) * 2.0
        y = x * 3.0
    assert len(eager_tape._nodes) == 1 and float(eager_tape.gradient(y, x)) == 3.0
