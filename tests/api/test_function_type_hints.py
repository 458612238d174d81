"""`ag.function(experimental_follow_type_hints=True)` (issue 25), TensorFlow's semantics:
the argument of a parameter annotated `ag.Tensor` becomes a tensor before the call is
keyed, so Python numbers of one type share one trace (`1, 2, 3` trace once; without the
option each value traces anew). Results are checked against the Python function."""

import functools

import numpy as np
import pytest

import autograph_py as ag


def _counted(fn):
    """`fn` with a count of the times its body runs (traces, for a traced function)."""
    @functools.wraps(fn)   # its signature and annotations are fn's
    def counted(*args, **kwargs):
        counted.runs += 1
        return fn(*args, **kwargs)

    counted.runs = 0
    return counted


def _scale(x: ag.Tensor, factor):
    return x * factor


def test_numbers_of_one_type_trace_once_as_in_tensorflow():
    enabled = ag.function(_scale, experimental_follow_type_hints=True)
    disabled = ag.function(_scale, experimental_follow_type_hints=False)
    for x in (1, 2, 3):
        result = enabled(x, 2)
        assert result.dtype == ag.int32 and int(result) == _scale(x, 2)
        assert int(disabled(x, 2)) == _scale(x, 2)
    assert (enabled.trace_count, disabled.trace_count) == (1, 3)


def test_an_unannotated_parameter_stays_keyed_by_value():
    f = ag.function(_scale, experimental_follow_type_hints=True)
    assert [float(f(1.5, k)) for k in (2, 2, 3)] == [_scale(1.5, k) for k in (2, 2, 3)]
    assert f.trace_count == 2            # factor 2, factor 3


def test_each_python_type_is_its_own_dtype():
    def identity(x: ag.Tensor):
        return x

    f = ag.function(identity, experimental_follow_type_hints=True)
    dtypes = [f(v).dtype for v in (1, 2, 0.5, 2.5, True, [1, 2], [3, 4])]
    assert dtypes == [ag.int32, ag.int32, ag.float32, ag.float32, ag.bool, ag.int32, ag.int32]
    assert f.trace_count == 4            # int, float, bool, int list of 2
    np.testing.assert_array_equal(f([3, 4]).numpy(), np.array([3, 4], np.int32))


def test_varargs_kwargs_and_keyword_only_parameters():
    def total(*xs: ag.Tensor, scale: ag.Tensor, **named: ag.Tensor):
        result = scale * sum(xs)
        for value in named.values():
            result = result + value
        return result

    counted = _counted(total)
    f = ag.function(counted, experimental_follow_type_hints=True)
    for k in range(1, 4):
        args, kwargs = (k, k + 1), {"scale": 2 * k, "extra": k}
        assert int(f(*args, **kwargs)) == total(*args, **kwargs)
    assert f.trace_count == counted.runs == 1


def test_string_annotations_are_followed():
    # What `from __future__ import annotations` makes of `x: ag.Tensor`.
    def double(x: "ag.Tensor"):
        return x + x

    f = ag.function(double, experimental_follow_type_hints=True)
    assert [int(f(v)) for v in (1, 2, 3)] == [2, 4, 6] and f.trace_count == 1


def test_an_annotation_that_does_not_evaluate_is_no_tensor_hint():
    def f(x: "Undefined[int]", y: ag.Tensor):  # noqa: F821 -- never evaluated by Python
        return x + y

    traced = ag.function(f, experimental_follow_type_hints=True)
    assert [int(traced(1, y)) for y in (1, 2)] == [2, 3] and traced.trace_count == 1


def test_tensors_variables_and_none_stay_as_they_are():
    def shift(x: ag.Tensor, offset: ag.Tensor = None):
        return x if offset is None else x + offset

    f = ag.function(shift, experimental_follow_type_hints=True)
    v = ag.Variable(10)
    assert int(f(1)) == 1 and int(f(1, v)) == 11
    v.assign(20)                           # a Variable is read when the graph runs
    assert int(f(2, v)) == 22 and int(f(ag.constant(3), 4)) == 7


def test_a_value_that_is_no_tensor_is_a_clear_error():
    f = ag.function(_scale, experimental_follow_type_hints=True)
    with pytest.raises(TypeError, match=r"argument x is annotated ag.Tensor .* \{'a': 1\} "
                                        r"does not convert to a tensor"):
        f({"a": 1}, 2)


def test_methods_follow_their_hints():
    class Model:
        def __init__(self):
            self.w = ag.Variable(3.0)

        @ag.function(experimental_follow_type_hints=True)
        def call(self, x: ag.Tensor):
            return x * self.w

    m = Model()
    assert [float(m.call(v)) for v in (1.0, 2.0, 4.0)] == [3.0, 6.0, 12.0]
    assert m.call.trace_count == 1


def test_an_input_signature_takes_precedence_as_in_tensorflow():
    f = ag.function(_scale, experimental_follow_type_hints=True,
                    input_signature=[ag.TensorSpec([], ag.float32), ag.TensorSpec([], ag.float32)])
    assert [float(f(x, 2)) for x in (1, 2)] == [2.0, 4.0] and f.trace_count == 1
    assert f(1, 2).dtype == ag.float32


def test_a_hinted_function_called_from_another_is_inlined():
    inner = ag.function(_scale, experimental_follow_type_hints=True)

    @ag.function
    def outer(x):
        return inner(3, 2) + x

    assert [int(outer(ag.constant(k))) for k in (1, 2)] == [7, 8]
    assert inner.trace_count == 0 and outer.trace_count == 1
