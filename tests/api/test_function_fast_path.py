"""The cache hit of a plain call (positional eager tensors, no tape, no graph being built)
skips binding and `call_key` (`trace_key.eager_call_key`): these tests check that it
serves exactly what the general path would, against the plain Python function as the
oracle, for the signatures where binding adds something (defaults holding tensors,
keyword-only tensors, `*args`), and that a later, more specific trace takes over."""

import numpy as np
import pytest

import autograph_py as ag
from autograph_py.tracing.trace_key import call_key, eager_call_key


def _same(got, want):
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert got.dtype == want.dtype


BIAS = ag.constant(np.float32(10.0))


def with_tensor_default(x, b=BIAS):
    return x * 2.0 + b


def with_keyword_only_tensor(x, *, b=BIAS):
    return x - b


def variadic(*xs):
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total


@pytest.mark.parametrize("fn, arity", [(with_tensor_default, 1), (with_keyword_only_tensor, 1),
                                       (variadic, 1), (variadic, 3)])
def test_repeated_plain_calls_match_the_python_function(fn, arity):
    f = ag.function(fn)
    for n in (3, 3, 4, 3, 4):  # hits after the first call of each shape
        args = [ag.constant(np.arange(n, dtype=np.float32) + i) for i in range(arity)]
        _same(f(*args), fn(*args))
    assert f.trace_count == 2


def test_a_tensor_bound_by_default_is_fed_on_every_call():
    f = ag.function(with_tensor_default)
    x = ag.constant(np.float32(1.0))
    for _ in range(3):
        _same(f(x), with_tensor_default(x))
    assert not f._cache.fast  # binding feeds the default too: no fast key for it


def test_the_fast_key_determines_the_call_key():
    a, b = ag.constant([1.0, 2.0]), ag.constant(np.int32(3))
    fast, arrays = eager_call_key(a, b)
    same, _ = eager_call_key(ag.constant([5.0, 6.0]), ag.constant(np.int32(4)))
    assert fast == same
    assert eager_call_key(a, ag.constant([1, 2])) != (fast, arrays)
    assert eager_call_key(a, 1.0) is None and eager_call_key(a, np.float32(1)) is None
    assert arrays == call_key(["a", "b"], [a, b])[1]
    many = [ag.constant(float(i)) for i in range(12)]  # past the specialized arities
    assert eager_call_key(*many)[1] == [t._value for t in many]


def test_a_more_specific_trace_takes_over_from_a_fast_hit():
    f = ag.function(lambda x: x * 3.0)
    first = f.get_concrete_function(ag.TensorSpec([3, None, None], ag.float32))
    x = ag.constant(np.ones((3, 2, 2), np.float32))
    _same(f(x), x * 3.0)
    _same(f(x), x * 3.0)
    assert list(f._cache.fast.values()) == [first._call_flat]
    # Made for a call `first` does not serve, and more specific than it for x's shape.
    closer = f.get_concrete_function(ag.TensorSpec([None, 2, 2], ag.float32))
    assert closer is not first and not f._cache.fast
    _same(f(x), x * 3.0)
    assert list(f._cache.fast.values()) == [closer._call_flat]


def test_a_fast_hit_under_a_tape_still_records():
    f = ag.function(lambda x: x * x)
    x = ag.constant(3.0)
    f(x), f(x)  # the fast key is known now
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    _same(tape.gradient(y, x), ag.constant(6.0))


def test_calls_under_a_tape_learn_and_use_the_fast_key_and_still_record():
    f = ag.function(lambda x, y: x * y)
    x, y = ag.constant(3.0), ag.constant(2.0)
    for _ in range(3):  # the first call traces under the tape, the next ones hit
        with ag.GradientTape() as tape:
            tape.watch([x, y])
            z = f(x, y)
        _same(z, x * y)
        found = tape.gradient(z, [x, y])
        _same(found[0], y)
        _same(found[1], x)
    assert f.trace_count == 1 and len(f._cache.fast) == 1


def test_a_tensor_bound_by_default_is_recorded_under_a_tape():
    f = ag.function(with_tensor_default)
    x = ag.constant(np.float32(1.0))
    for _ in range(2):
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        _same(y, with_tensor_default(x))
        expected_tape = ag.GradientTape()
        with expected_tape:
            expected_tape.watch(x)
            expected = with_tensor_default(x)
        _same(tape.gradient(y, x), expected_tape.gradient(expected, x))
    assert not f._cache.fast


def test_input_signature_errors_are_not_skipped_by_a_fast_hit():
    f = ag.function(lambda x: x + 1, input_signature=[ag.TensorSpec([None], ag.int32)])
    x = ag.constant([1, 2])
    _same(f(x), x + 1)
    _same(f(x), x + 1)
    with pytest.raises(ValueError, match="argument 'x' expected"):
        f(ag.constant([1.0, 2.0]))
