"""`ag.function` (issue 4): functions calling functions (inlined, docs/function.md),
`get_concrete_function` and `ConcreteFunction`, and the seed's examples (SEED_EXAMPLES.md
§6, §8–§13) taken further than tests/e2e does."""

import numpy as np
import pytest

import autograph_py as ag
from tests.converters.corpus import sum_even  # the seed's function
from tests.trace_time import expect_trace_time, print_warning

# --- functions calling functions ------------------------------------------------------

@ag.function
def _inner(x, y):
    print("tracing inner")
    return ag.add(x, y)


@ag.function
def _outer(x):
    return _inner(x, ag.square(x))


def test_an_inner_function_is_inlined_into_the_outer_graph(capsys):
    with expect_trace_time(print_warning(_inner)):  # shows when _inner is traced, on purpose
        assert float(_outer(ag.constant(2.0))) == 6.0
    assert float(_outer(ag.constant(3.0))) == 12.0
    ops = [op.type for op in _outer.get_concrete_function(ag.constant(1.0)).graph.get_operations()]
    assert "Square" in ops and "Add" in ops and "Call" not in ops
    assert _inner.trace_count == 0          # inlined: no trace, no cache entry of its own
    assert capsys.readouterr().out == "tracing inner\n"   # once: the outer trace
    assert float(_inner(ag.constant(2.0), ag.constant(2.0))) == 4.0
    assert _inner.trace_count == 1


def test_inlined_functions_keep_autograph_and_nest():
    @ag.function
    def clip(x):
        if x > 1.0:
            x = ag.constant(1.0)
        return x

    @ag.function
    def twice_clipped(x):
        return clip(x) + clip(x * 0.5)

    @ag.function
    def outer(x):
        return twice_clipped(x) * 10.0

    for value in (0.5, 1.5, 4.0):
        eager = ag.to_graph(outer.python_function)(ag.constant(value))
        assert float(outer(ag.constant(value))) == pytest.approx(float(eager))
    assert outer.trace_count == 1


def test_a_function_called_in_a_graph_under_construction_is_inlined():
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=[])
        z = _outer(x)
        assert float(ag.Session().run(z, feed_dict={x: 2.0})) == 6.0


# --- get_concrete_function / ConcreteFunction -------------------------------------------

def _scaled_sum(x, y, scale=2.0):
    return {"sum": ag.reduce_sum(x * y) * scale, "x": x, "const": 1}


def test_concrete_function_from_specs_with_none_dims():
    f = ag.function(_scaled_sum)
    c = f.get_concrete_function(ag.TensorSpec([None, 3], ag.float32),
                                ag.TensorSpec([3], ag.float32))
    assert isinstance(c, ag.ConcreteFunction)
    assert [(t.name, t.shape.dims) for t in c.inputs] == [("x:0", (None, 3)), ("y:0", (3,))]
    assert c.graph.inputs == c.inputs and c.graph.outputs == c.outputs
    assert set(c.structured_outputs) == {"sum", "x", "const"}
    assert c.structured_outputs["const"] == 1
    assert c.outputs == [c.structured_outputs["sum"], c.structured_outputs["x"]]
    for rows in (1, 4):
        x = np.arange(rows * 3, dtype=np.float32).reshape(rows, 3)
        y = np.array([1.0, -1.0, 2.0], np.float32)
        expected = _scaled_sum(ag.constant(x), ag.constant(y))
        for out in (c(ag.constant(x), ag.constant(y)), c(x, [1.0, -1.0, 2.0]),
                    f(ag.constant(x), ag.constant(y))):
            assert float(out["sum"]) == float(expected["sum"]) and out["const"] == 1
            np.testing.assert_array_equal(out["x"].numpy(), x)
    assert f.trace_count == 1       # calls of any row count reuse the (None, 3) graph


def test_concrete_function_from_values_is_the_cached_graph():
    f = ag.function(_scaled_sum)
    x, y = ag.constant([[1.0, 2.0, 3.0]]), ag.constant([1.0, 1.0, 1.0])
    c = f.get_concrete_function(x, y, scale=3.0)
    assert [t.shape.dims for t in c.inputs] == [(1, 3), (3,)]
    assert f.get_concrete_function(x, y, 3.0) is c
    assert float(f(x, y, scale=3.0)["sum"]) == 18.0
    assert f.trace_count == 1
    assert f.get_concrete_function(x, y) is not c   # another Python value: another graph


def test_a_partial_spec_never_stands_in_for_a_concrete_shape():
    f = ag.function(lambda x: x + 1.0)
    exact = f.get_concrete_function(ag.TensorSpec([1], ag.float32))
    relaxed = f.get_concrete_function(ag.TensorSpec([None], ag.float32))
    assert exact.inputs[0].shape.dims == (1,)
    assert relaxed.inputs[0].shape.dims == (None,)
    unknown = f.get_concrete_function(ag.TensorSpec(None, ag.float32))
    assert unknown.inputs[0].shape.dims is None
    np.testing.assert_array_equal(unknown(np.ones((2, 2), np.float32)).numpy(), 2.0)


def test_concrete_function_with_an_input_signature():
    f = ag.function(lambda x: x * 2, input_signature=[ag.TensorSpec([None], ag.int32)])
    c = f.get_concrete_function()
    assert c.inputs[0].shape.dims == (None,)
    assert f.get_concrete_function(ag.TensorSpec([None], ag.int32)) is c
    np.testing.assert_array_equal(c(ag.constant([1, 2, 3])).numpy(), [2, 4, 6])


def test_python_function_is_the_original():
    assert _outer.python_function.__name__ == "_outer"
    assert ag.function(_scaled_sum).python_function is _scaled_sum


# --- the seed's examples, further -----------------------------------------------------------

def _seed_f(x, y):
    print(x, y)
    return ag.reduce_mean(ag.multiply(x ** 2, 3) + y)


def test_seed_6_results_match_eager_for_many_inputs_with_one_trace(capsys):
    g = ag.function(_seed_f)
    rng = np.random.default_rng(0)
    with expect_trace_time(print_warning(_seed_f)):  # the article prints while tracing
        for _ in range(5):
            x, y = (ag.constant(rng.standard_normal((1, 2), dtype=np.float32))
                    for _ in range(2))
            assert g(x, y).numpy() == pytest.approx(_seed_f(x, y).numpy())
    assert g.trace_count == 1
    assert capsys.readouterr().out.count('Tensor("x:0"') == 1


def test_seed_8_python_scalars_trace_per_value_and_give_tensors():
    @ag.function
    def compute_z1(x, y):
        return ag.add(x, y)

    @ag.function
    def compute_z0(x):
        return compute_z1(x, ag.square(x))

    assert [float(compute_z0(v)) for v in (2.0, 3.0, 2.0)] == [6.0, 12.0, 6.0]
    assert compute_z0.trace_count == 2
    z = compute_z0(ag.constant(2.0))
    assert isinstance(z, ag.Tensor) and float(z) == 6.0


def test_seed_9_cache_hit_keeps_the_dtype_and_shape(capsys):
    @ag.function
    def double(a):
        print("Tracing with", a)
        return a + a

    with expect_trace_time(print_warning(double)):  # the article prints while tracing
        for value in (1, 1.1, [1, 2], 3, 2.5, [5, 6]):
            result = double(ag.constant(value))
            expected = ag.constant(value) + ag.constant(value)
            assert result.dtype == expected.dtype
            np.testing.assert_array_equal(result.numpy(), expected.numpy())
    assert double.trace_count == 3
    assert capsys.readouterr().out.count("Tracing with") == 3


def test_seed_11_autograph_on_matches_plain_python_on_several_lists():
    on = ag.function(sum_even)
    for items in ([10, 12, 15, 20], [1, 3, 5, 7], [2, 4, 6, 8], [0, 0, 0, 1]):
        assert int(on(ag.constant(items))) == sum_even(items)
    assert on.trace_count == 1


def test_seed_12_method_variables_track_an_eager_reference():
    class ScalarModel:
        def __init__(self):
            self.v = ag.Variable(0)

        @ag.function
        def increment(self, amount):
            self.v.assign_add(amount)

    models = [ScalarModel() for _ in range(3)]
    totals = [0, 0, 0]
    for step, amount in enumerate((3, 4, 5, 6, 7)):
        i = step % 3
        assert models[i].increment(ag.constant(amount)) is None
        totals[i] += amount
        assert [int(m.v) for m in models] == totals


def test_seed_13_print_element_prints_every_call_for_every_length(capsys):
    @ag.function
    def print_element(items):
        for c in items:
            ag.print(c)

    for items in ([1, 5, 6, 8, 3], [7, 9, 2, 4, 0], [4, 2]):
        print_element(ag.constant(items))
        assert capsys.readouterr().out == "".join(f"{c}\n" for c in items)
    assert print_element.trace_count == 2


def test_a_call_and_get_concrete_function_share_the_input_signatures_graph():
    f = ag.function(lambda x: x + 1, input_signature=[ag.TensorSpec([None], ag.int32)])
    np.testing.assert_array_equal(f(ag.constant([1, 2])).numpy(), [2, 3])
    assert f.get_concrete_function() is f.get_concrete_function(
        ag.TensorSpec([None], ag.int32))
    assert f.trace_count == 1


def _scaled_matmul(x, w):
    y = ag.matmul(x, w)
    if ag.reduce_sum(y) > 0:
        y = y * 2.0
    return ag.reduce_sum(y)


def test_code_is_the_source_the_executor_runs():
    f = ag.function(_scaled_matmul)
    x, w = ag.constant([[1.0, 2.0]]), ag.constant([[1.0], [-2.0]])
    c = f.get_concrete_function(x, w)
    lines = [line.strip() for line in c.code.splitlines()]
    assert lines[:2] == ["def run(ctx, feeds):", "x, w, = feeds"]   # named after parameters
    assert "mat_mul = MatMul(x, w)" in lines                        # values after their ops
    assert "if (sum > const):" in lines                             # an If inlined
    assert "y = mat_mul" in lines                # the branch's output, named after the user's y
    assert float(c(x, w)) == float(ag.to_graph(_scaled_matmul)(x, w))
