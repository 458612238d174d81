"""The one cache of an `ag.function` (DESIGN.md §5): a call is served by the trace made
for its key or by the most specific more general trace (a `[None]` trace serves every
length); results are checked against the eager oracle."""

import numpy as np
import pytest

import autograph_py as ag
from autograph_py.tracing.function_cache import FunctionCache
from autograph_py.tracing.trace_key import is_subtype


def _scale(x, k):
    return x * k


@pytest.mark.parametrize("call, trace, serves", [
    (((3,),), ((None,),), True),
    (((3, 2),), ((None, 2),), True),
    (((3, 2),), ((None, 3),), False),
    (((3,),), ((3, None),), False),         # another rank
    (((3,),), (None,), True),               # unknown rank serves any
    (((None,),), ((3,),), False),           # a partial call never takes a concrete trace
    (((None,),), ((None,),), True),
    ((None,), ((None,),), False),
    (((), (2,)), ((), (None,)), True),
])
def test_is_subtype(call, trace, serves):
    assert is_subtype(call, trace) is serves


def test_the_cache_prefers_the_most_specific_serving_trace():
    cache = FunctionCache()
    structure = ("float32",)
    cache.add((structure, ((None, None),)), "any matrix")
    cache.add((structure, ((None, 2),)), "two columns")
    cache.add((structure, ((3, 2),)), "three by two")
    assert cache.lookup((structure, ((3, 2),))) == "three by two"
    assert cache.lookup((structure, ((4, 2),))) == "two columns"
    assert cache.lookup((structure, ((4, 5),))) == "any matrix"
    assert cache.lookup((structure, ((4,),))) is None
    assert cache.lookup((("int32",), ((3, 2),))) is None     # the structure must be equal


def test_a_none_trace_serves_every_length():
    f = ag.function(_scale)
    general = f.get_concrete_function(ag.TensorSpec([None], ag.float32), 2.0)
    for n in (1, 2, 7, 0):
        x = ag.constant(np.arange(n, dtype=np.float32))
        np.testing.assert_array_equal(f(x, 2.0).numpy(), _scale(x, 2.0).numpy())
        assert f.get_concrete_function(x, 2.0) is general
    assert f.trace_count == 1
    f(ag.constant([1.0]), 3.0)                       # another Python value: another trace
    f(ag.constant([1], ag.int32), 2)                 # another dtype: another trace
    assert f.trace_count == 3


def test_a_more_specific_trace_made_earlier_keeps_serving_its_shape():
    f = ag.function(_scale)
    exact = f.get_concrete_function(ag.constant([1.0, 2.0]), 2.0)
    general = f.get_concrete_function(ag.TensorSpec([None], ag.float32), 2.0)
    assert general is not exact and f.trace_count == 2
    assert f.get_concrete_function(ag.constant([5.0, 6.0]), 2.0) is exact
    assert f.get_concrete_function(ag.constant([5.0, 6.0, 7.0]), 2.0) is general
    np.testing.assert_array_equal(f(ag.constant([5.0, 6.0, 7.0]), 2.0).numpy(),
                                  [10.0, 12.0, 14.0])
    assert f.trace_count == 2


def test_remembered_answers_are_bounded():
    f = ag.function(lambda x: ag.reduce_sum(x),
                    input_signature=[ag.TensorSpec([None], ag.int32)])
    for n in range(1200):
        assert int(f(ag.constant(np.ones(n, np.int32)))) == n
    assert f.trace_count == 1 and len(f._cache._resolved) <= 1024
