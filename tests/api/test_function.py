"""`ag.function` (issue 4): call forms, the cache key, tracing, input_signature,
retracing, the autograph switch and return structures. Each result is checked against
an oracle: the same Python function run eagerly (through `ag.to_graph`, which keeps exact
Python semantics on eager tensors)."""

import warnings

import numpy as np
import pytest
from autograph_py.runtime import nest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph_py as ag
from tests.trace_time import expect_trace_time, print_warning


def as_numpy(structure):
    return nest.map_structure(
        lambda v: v.numpy() if isinstance(v, ag.Tensor) else v, structure)


def assert_matches_eager(fn, *args, **kwargs):
    """`ag.function(fn)` gives the eager result (values, dtypes and structure)."""
    expected = ag.to_graph(fn)(*args, **kwargs)
    actual = ag.function(fn)(*args, **kwargs)
    nest.assert_same_structure(expected, actual)
    for e, a in zip(nest.flatten(expected), nest.flatten(actual)):
        assert type(a) is type(e)
        if isinstance(e, ag.Tensor):
            assert a.dtype == e.dtype
            np.testing.assert_allclose(a.numpy(), e.numpy(), rtol=1e-6)
        else:
            assert a == e
    return actual


class Traced:
    """A function body that counts how often Python runs it (= how often it traces)."""

    def __init__(self):
        self.calls = 0

    def __call__(self, a, b=2.0):
        self.calls += 1
        return a * b


# --- the three call forms ---------------------------------------------------------------

def _plain(x):
    return x * 2.0 + 1.0


@ag.function
def _bare(x):
    return x * 2.0 + 1.0


@ag.function(name="configured")
def _configured(x):
    return x * 2.0 + 1.0


@pytest.mark.parametrize("make", [lambda: _bare, lambda: _configured,
                                  lambda: ag.function(_plain)],
                         ids=["@ag.function", "@ag.function(...)", "ag.function(fn)"])
def test_the_three_call_forms_give_a_function_with_the_eager_result(make):
    f = make()
    assert isinstance(f, ag.Function)
    x = ag.constant([1.0, -2.0])
    np.testing.assert_array_equal(f(x).numpy(), _plain(x).numpy())
    assert f.trace_count == 1


def test_name_and_docstring_follow_the_function():
    def documented(x):
        """Doc."""
        return x

    f = ag.function(documented)
    assert (f.__name__, f.__doc__, f.python_function) == ("documented", "Doc.", documented)
    assert _configured.name == "configured"


# --- the cache key ------------------------------------------------------------------------

def test_positional_keyword_and_defaults_share_one_trace():
    body = Traced()
    f = ag.function(lambda a, b=2.0: body(a, b))
    x = ag.constant(3.0)
    results = [f(x), f(a=x), f(x, 2.0), f(x, b=2.0), f(b=2.0, a=x)]
    assert [float(r) for r in results] == [6.0] * 5
    assert f.trace_count == body.calls == 1


def test_tensors_are_keyed_by_shape_and_dtype_not_value():
    body = Traced()
    f = ag.function(body)
    assert float(f(ag.constant(1.0))) == 2.0
    assert float(f(ag.constant(5.0))) == 10.0                       # same spec: hit
    np.testing.assert_array_equal(f(np.float32(7.0)).numpy(), 14.0)  # numpy, same spec
    assert f.trace_count == 1
    f(ag.constant([1.0]))                                           # new shape
    f(ag.constant(1.0, dtype=ag.float64))                           # new dtype
    assert f.trace_count == body.calls == 3


def test_numpy_arrays_and_eager_tensors_of_one_spec_share_a_trace():
    f = ag.function(lambda a: a + 1)
    f(np.array([1, 2], np.int32))
    np.testing.assert_array_equal(f(ag.constant([3, 4])).numpy(), [4, 5])
    assert f.trace_count == 1


def test_python_values_are_keyed_by_value_and_type():
    body = Traced()
    f = ag.function(body)
    x = ag.constant(3.0)
    for b in (1, 1.0, True, 1, 1.0, True, 2):
        assert float(f(x, b)) == 3.0 * b
    assert f.trace_count == body.calls == 4     # 1, 1.0, True and 2: equal values, distinct


def test_python_values_are_baked_into_the_graph():
    f = ag.function(lambda a, n: a * n)
    c = f.get_concrete_function(ag.constant(1.0), 4.0)
    assert [op.type for op in c.graph.get_operations()].count("Const") == 1
    assert float(f(ag.constant(2.0), 4.0)) == 8.0


def test_an_unhashable_python_argument_says_to_pass_a_tensor_or_make_it_hashable():
    f = ag.function(lambda a, b: a)
    with pytest.raises(TypeError, match=r"argument b is an unhashable set .*pass a tensor "
                                        r"instead, or make it hashable"):
        f(ag.constant(1.0), {1, 2})
    with pytest.raises(TypeError, match=r"argument b\[1\]\['k'\] is an unhashable"):
        f(ag.constant(1.0), (1, {"k": bytearray(b"x")}))
    assert f.trace_count == 0


def test_lists_and_tuples_of_python_numbers_are_structures_keyed_by_value():
    body = Traced()
    f = ag.function(lambda a, b: body(a, b[0] + b[1]))
    x = ag.constant(1.0)
    assert float(f(x, [1, 2])) == 3.0
    assert float(f(x, [1, 2])) == 3.0
    assert float(f(x, (1, 2))) == 3.0       # a tuple is another structure
    assert float(f(x, [2, 2])) == 4.0
    assert f.trace_count == body.calls == 3


def _nested(d, pair):
    return d["w"] * pair[0] + d["b"] - pair[1][0]


def test_nested_lists_tuples_and_dicts_of_tensors():
    d = {"w": ag.constant([1.0, 2.0]), "b": ag.constant(0.5)}
    pair = [ag.constant(3.0), (ag.constant(1.0),)]
    f = ag.function(_nested)
    assert_matches_eager(_nested, d, pair)
    other = {"b": ag.constant(1.5), "w": ag.constant([-1.0, 4.0])}   # key order differs
    np.testing.assert_allclose(f(other, pair).numpy(), _nested(other, pair).numpy())
    assert f.trace_count == 1
    names = [t.name for t in f.get_concrete_function(d, pair).inputs]
    assert names == ["d_0:0", "d_1:0", "pair_0:0", "pair_1:0"]   # dict leaves by sorted key


def test_a_changed_structure_retraces():
    f = ag.function(lambda xs: xs[0] + xs[-1] * len(xs))
    a = ag.constant(1.0)
    assert float(f([a, a])) == 3.0
    assert float(f([a, a, a])) == 4.0
    assert float(f((a, a))) == 3.0
    assert f.trace_count == 3


# --- tracing --------------------------------------------------------------------------------

def test_placeholders_are_named_after_the_parameters(capsys):
    @ag.function
    def f(alpha, beta, *rest, gamma=None, **options):
        print(alpha, beta, rest, gamma, options)
        return alpha

    one = ag.constant(1.0)
    with expect_trace_time(print_warning(f)):  # shows the placeholders on purpose
        f(one, [one, ag.constant(2)], one, gamma=ag.constant(3), delta=ag.constant(4))
    assert capsys.readouterr().out == (
        'Tensor("alpha:0", shape=(), dtype=float32) '
        '[Tensor("beta_0:0", shape=(), dtype=float32), '
        'Tensor("beta_1:0", shape=(), dtype=int32)] '
        '(Tensor("rest_0:0", shape=(), dtype=float32),) '
        'Tensor("gamma:0", shape=(), dtype=int32) '
        "{'delta': Tensor(\"options_0:0\", shape=(), dtype=int32)}\n")


def test_a_cache_hit_does_not_run_python(capsys):
    body = Traced()

    @ag.function
    def f(x):
        print("tracing", x)
        return body(x)

    with expect_trace_time(print_warning(f)):  # counts traces on purpose
        for value in (1.0, 2.0, 3.0):
            assert float(f(ag.constant(value))) == 2.0 * value
    assert body.calls == 1 and f.trace_count == 1
    assert capsys.readouterr().out == 'tracing Tensor("x:0", shape=(), dtype=float32)\n'


def test_python_scalars_where_tensors_are_expected_return_a_tensor():
    @ag.function
    def square_plus(x):
        return ag.add(x, ag.square(x))

    z = square_plus(2.)
    assert isinstance(z, ag.Tensor) and z.dtype == ag.float32 and float(z) == 6.0
    z = square_plus(3)
    assert z.dtype == ag.int32 and int(z) == 12


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, width=32), min_size=1, max_size=6),
       st.floats(-10, 10, width=32))
def test_function_matches_eager_on_any_values(values, scale):
    def fn(x, s):
        if ag.reduce_sum(x) > 0:
            y = x * s
        else:
            y = x - s
        return ag.reduce_max(y), y

    assert_matches_eager(fn, ag.constant(values), ag.constant(scale))


# --- input_signature ------------------------------------------------------------------------

def test_input_signature_traces_once_for_every_compatible_shape():
    body = Traced()
    f = ag.function(lambda x: body(x, 3.0),
                    input_signature=[ag.TensorSpec(shape=[None, 2], dtype=ag.float32)])
    for rows in (1, 4, 0, 7):
        value = np.arange(rows * 2, dtype=np.float32).reshape(rows, 2)
        np.testing.assert_array_equal(f(ag.constant(value)).numpy(), value * 3)
    assert f.trace_count == body.calls == 1
    assert f.get_concrete_function(ag.TensorSpec([None, 2], ag.float32)).inputs[0].shape.dims \
        == (None, 2)


@pytest.mark.parametrize("value, got", [
    # A tensor keeps its dtype (as in TensorFlow); a numpy array would be converted.
    (ag.constant([[1, 2]]), "TensorSpec(shape=(1, 2), dtype=int32)"),
    (np.array([1.0, 2.0], np.float32), "TensorSpec(shape=(2,), dtype=float32)"),
    (np.zeros((1, 3), np.float32), "TensorSpec(shape=(1, 3), dtype=float32)"),
    ("text", "'text'"),
])
def test_input_signature_rejects_incompatible_inputs_naming_argument_and_specs(value, got):
    f = ag.function(lambda scores: scores,
                    input_signature=[ag.TensorSpec(shape=[None, 2], dtype=ag.float32)])
    with pytest.raises(ValueError) as info:
        f(value)
    assert str(info.value) == (
        "Python inputs incompatible with input_signature: argument 'scores' expected "
        f"TensorSpec(shape=(None, 2), dtype=float32), got {got}")
    assert f.trace_count == 0


def test_input_signature_converts_python_numbers_losslessly():
    as_float = ag.function(lambda x: x, input_signature=[ag.TensorSpec([], ag.float32)])
    as_int = ag.function(lambda x: x, input_signature=[ag.TensorSpec([], ag.int32)])
    assert as_float(0.1).numpy() == np.float32(0.1) and as_float(0.1).dtype == ag.float32
    assert as_float(3).numpy() == 3.0
    assert as_int(3.0).dtype == ag.int32 and int(as_int(3.0)) == 3
    with pytest.raises(ValueError, match="argument 'x' expected .*int32.*got 3.5"):
        as_int(3.5)
    assert (as_float.trace_count, as_int.trace_count) == (1, 1)


def test_input_signature_with_shape_none_accepts_any_rank():
    f = ag.function(lambda x: ag.reduce_sum(x),
                    input_signature=[ag.TensorSpec(shape=None, dtype=ag.int32)])
    assert [int(f(ag.constant(v))) for v in (3, [1, 2], [[1], [2]])] == [3, 3, 3]
    assert f.trace_count == 1


def test_input_signature_must_match_the_parameters():
    with pytest.raises(ValueError, match="input_signature has 1 specs but two takes 2"):
        ag.function(lambda a, b: a, input_signature=[ag.TensorSpec([])], name="two")
    with pytest.raises(TypeError, match="must be a list of TensorSpec, got 3"):
        ag.function(lambda a: a, input_signature=[3])


def test_input_signature_on_a_method_excludes_self():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @ag.function(input_signature=[ag.TensorSpec([None], ag.float32)])
        def scale(self, x):
            return x * self.k

    s = Scaler(3.0)
    np.testing.assert_array_equal(s.scale(ag.constant([1.0, 2.0])).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(s.scale(ag.constant([1.0])).numpy(), [3.0])
    assert s.scale.trace_count == 1
    with pytest.raises(ValueError, match="argument 'x' expected"):
        s.scale(ag.constant([1, 2]))


# --- retracing ------------------------------------------------------------------------------

def test_reduce_retracing_generalizes_dims_after_a_shape_only_retrace(capsys):
    @ag.function(reduce_retracing=True)
    def total(x):
        print(x)
        return ag.reduce_sum(x)

    with expect_trace_time(print_warning(total)):  # shows each trace's shapes on purpose
        for n in (1, 2, 3, 10):
            assert float(total(ag.constant(np.ones(n, np.float32)))) == n
    assert total.trace_count == 2
    assert capsys.readouterr().out.splitlines() == [
        'Tensor("x:0", shape=(1,), dtype=float32)',
        'Tensor("x:0", shape=(None,), dtype=float32)']
    total(ag.constant(np.ones((2, 3), np.float32)))      # another rank: a new trace
    total(ag.constant(np.ones((5, 3), np.float32)))      # generalizes to (None, 3)
    total(ag.constant(np.ones((6, 3), np.float32)))
    assert total.trace_count == 4


def test_without_reduce_retracing_every_shape_traces():
    f = ag.function(lambda x: ag.reduce_sum(x))
    for n in (1, 2, 3):
        f(ag.constant(np.ones(n, np.float32)))
    assert f.trace_count == 3


def test_reduce_retracing_does_not_mix_up_python_values_of_different_types():
    def fn(x, n):
        return x + 10.0 if isinstance(n, bool) else x * n

    f = ag.function(fn, reduce_retracing=True)
    for size, n in ((1, 1), (2, 1), (3, True), (4, 1.0)):
        x = ag.constant(np.ones(size, np.float32))
        np.testing.assert_array_equal(f(x, n).numpy(), fn(x, n).numpy())
    assert f.trace_count == 4     # 1, True and 1.0 are equal but different Python values


def test_more_than_five_traces_warn_naming_the_argument_that_changed():
    f = ag.function(lambda x, step: x + step)
    x = ag.constant(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for step in range(5):
            f(x, float(step))           # five traces: no warning yet
    with pytest.warns(UserWarning, match=r"traced 6 times(.|\n)*\n  step: Python float") as rec:
        f(x, 5.0)
    assert rec[0].filename == __file__  # points at the caller, not at the library
    assert f.trace_count == 6


# --- the autograph switch ------------------------------------------------------------------

def _sum_positive(items):
    total = 0
    for c in items:
        if c > 0:
            total += c
    return total


def test_autograph_on_stages_python_control_flow():
    assert_matches_eager(_sum_positive, ag.constant([3, -1, 4]))


def test_autograph_off_iterating_a_symbolic_tensor_is_the_seeds_type_error():
    with pytest.raises(TypeError, match="^Tensor objects are only iterable when eager "
                                        "execution is enabled"):
        ag.function(_sum_positive, autograph=False)(ag.constant([3, -1, 4]))


def test_autograph_off_if_on_a_symbolic_tensor_says_to_use_autograph():
    def relu(x):
        if x > 0:
            return x
        return 0.0

    with pytest.raises(TypeError, match="symbolic tensor .*autograph=True"):
        ag.function(relu, autograph=False)(ag.constant(1.0))
    assert float(ag.function(relu)(ag.constant(-2.0))) == 0.0


def test_autograph_off_python_control_flow_on_python_values_still_works():
    f = ag.function(lambda x, n: x * 2 if n > 0 else x, autograph=False)
    assert float(f(ag.constant(1.0), 1)) == 2.0


# --- return values --------------------------------------------------------------------------

def _returns_structure(x):
    return (x, None, 3, "s", [x * 2.0, {"k": x + 1.0, "z": 1.5}])


@pytest.mark.parametrize("fn", [
    lambda x: x * 2.0,
    lambda x: None,
    lambda x: 7,
    lambda x: "text",
    lambda x: ag.constant(5.0),             # a constant: captured into the graph
    _returns_structure,
    lambda x: {"a": (x, [x, 1]), "b": ()},
], ids=["tensor", "None", "int", "str", "constant", "nested", "dict"])
def test_return_values_keep_their_structure_on_every_call(fn):
    f = ag.function(fn)
    for value in (1.0, 2.0, -3.0):
        expected = fn(ag.constant(value))
        actual = f(ag.constant(value))
        nest.assert_same_structure(expected, actual)
        assert as_numpy(actual).__repr__() == as_numpy(expected).__repr__()
    assert f.trace_count == 1


def test_returning_an_argument_or_a_variable_gives_a_fresh_eager_tensor():
    v = ag.Variable(4.0)
    f = ag.function(lambda x: (x, v))
    x = ag.constant(1.0)
    out_x, out_v = f(x)
    assert type(out_x) is type(x) and float(out_x) == 1.0
    assert isinstance(out_v, ag.Tensor) and float(out_v) == 4.0
    v.assign(5.0)
    assert float(f(x)[1]) == 5.0


def test_a_python_list_grown_in_a_staged_loop_is_returned_as_a_tensor():
    def doubled_until_big(xs):
        out = []
        for i in range(len(xs)):
            out.append(xs[i] * 2)
            if xs[i] > 2:
                break
        return out

    result = ag.function(doubled_until_big)(ag.constant([1, 2, 3, 1]))
    assert isinstance(result, ag.Tensor)
    np.testing.assert_array_equal(result.numpy(), doubled_until_big([1, 2, 3, 1]))
