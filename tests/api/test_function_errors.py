"""`ag.function` errors (issue 4): exceptions raised while tracing and while running name
the user's file and line; bad inputs get messages that say what is wrong."""

import functools
import re
import traceback

import numpy as np
import pytest
from autograph_py.runtime import context

import autograph_py as ag


def line_of(fn, text):
    """The absolute line number of the first source line of `fn` containing `text`."""
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def formatted(excinfo):
    return "".join(traceback.format_exception(excinfo.value))


def _bad_matmul(x):
    y = x * 2.0
    return ag.matmul(y, y)   # vectors: rank < 2 fails while tracing


@pytest.mark.parametrize("autograph", [True, False])
def test_an_error_while_tracing_names_the_users_file_and_line(autograph):
    f = ag.function(_bad_matmul, autograph=autograph)
    with pytest.raises(ValueError, match="matmul needs tensors of rank >= 2") as info:
        f(ag.constant([1.0, 2.0]))
    text = formatted(info)
    assert f'File "{__file__}", line {line_of(_bad_matmul, "ag.matmul")}' in text
    assert f.trace_count == 0


def test_a_failed_trace_leaves_the_function_usable():
    f = ag.function(_bad_matmul)
    with pytest.raises(ValueError):
        f(ag.constant([1.0, 2.0]))
    np.testing.assert_array_equal(f(ag.constant([[1.0]])).numpy(), [[4.0]])
    assert f.trace_count == 1
    assert context.current_graph() is None   # the failed trace left no graph entered


def _checked_sqrt(x):
    ag.debugging.assert_non_negative(x, message="x must be non-negative")
    return ag.sqrt(x)


def test_a_failing_assert_at_run_time_names_the_line_that_created_it():
    f = ag.function(_checked_sqrt)
    assert float(f(ag.constant(4.0))) == 2.0
    with pytest.raises(ag.InvalidArgumentError) as info:
        f(ag.constant(-1.0))
    message = str(info.value)
    assert "x must be non-negative" in message
    assert f"{__file__}:{line_of(_checked_sqrt, 'assert_non_negative')}" in message


def _gather_at(x, i):
    return ag.gather(x, i)


def test_a_kernel_error_at_run_time_names_the_op_and_the_users_line():
    f = ag.function(_gather_at)
    assert float(f(ag.constant([1.0, 2.0]), ag.constant(1))) == 2.0
    with pytest.raises(ag.InvalidArgumentError) as info:  # TensorFlow's error and message
        f(ag.constant([1.0, 2.0]), ag.constant(5))
    message = str(info.value)
    assert "GatherV2" in message and "indices = 5 is not in [0, 2)" in message
    assert f"{__file__}:{line_of(_gather_at, 'ag.gather')}" in message


def test_creating_a_variable_on_a_retrace_points_at_the_users_line():
    def late(x):
        if x.shape.rank == 1:
            v = ag.Variable(1.0)
            x = v + x
        return x

    f = ag.function(late)
    f(ag.constant(1.0))
    with pytest.raises(ValueError, match="later trace") as info:
        f(ag.constant([1.0]))
    line = line_of(late, "ag.Variable")
    assert f'File "{__file__}", line {line}' in formatted(info)
    assert f"at {__file__}:{line} " in str(info.value)


# --- bad inputs ---------------------------------------------------------------------------

def _pair(a, b):
    return a + b


@pytest.mark.parametrize("args, kwargs, message", [
    ((1.0,), {}, "_pair(): missing a required argument: 'b'"),
    ((1.0, 2.0, 3.0), {}, "_pair(): too many positional arguments"),
    ((1.0, 2.0), {"c": 1}, "_pair(): got an unexpected keyword argument 'c'"),
    ((1.0,), {"a": 2.0}, "_pair(): multiple values for argument 'a'"),
])
def test_arguments_that_do_not_fit_the_signature_name_the_function(args, kwargs, message):
    with pytest.raises(TypeError) as info:
        ag.function(_pair)(*args, **kwargs)
    assert str(info.value) == message


def test_function_of_a_non_callable_is_a_type_error():
    with pytest.raises(TypeError, match="ag.function needs a function, got int 3"):
        ag.function(3)


def test_a_mismatched_dtype_inside_the_function_names_both_dtypes():
    f = ag.function(lambda a, b: ag.add(a, b))
    with pytest.raises(TypeError, match="int32.*float32"):
        f(ag.constant(1), ag.constant(1.0))


def test_a_concrete_function_rejects_incompatible_tensors():
    c = ag.function(_pair).get_concrete_function(ag.TensorSpec([None, 3], ag.float32),
                                                  ag.TensorSpec([3], ag.float32))
    ok = np.ones((2, 3), np.float32)
    with pytest.raises(TypeError, match="takes 2 tensor arguments, got 1"):
        c(ok)
    with pytest.raises(ValueError, match=r"argument 0 .* compatible with "
                                         r"TensorSpec\(shape=\(None, 3\), dtype=float32\), got "
                                         r"TensorSpec\(shape=\(2, 4\), dtype=float32\)"):
        c(ag.constant(np.ones((2, 4), np.float32)), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"argument 0 .*got shape \(2, 4\)"):
        c(np.ones((2, 4), np.float32), [1.0, 2.0, 3.0])
    # A tensor keeps its dtype; a numpy array is converted (exactly here), as TensorFlow does.
    with pytest.raises(ValueError, match=r"argument 0 .*got TensorSpec\(shape=\(2, 3\), "
                                         r"dtype=int32\)"):
        c(ag.constant(np.ones((2, 3), np.int32)), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(c(np.ones((2, 3), np.int32), [1.0, 2.0, 3.0]).numpy(),
                                  np.ones((2, 3)) + [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"argument 1 .*got shape \(2,\)"):
        c(ok, [1.0, 2.0])


def test_get_concrete_function_rejects_symbolic_tensors():
    f = ag.function(_pair)
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=[])
        with pytest.raises(TypeError, match="not symbolic tensors"):
            f.get_concrete_function(x, x)


async def _fetches(x):
    return x * 2


def _yields(n):
    yield from range(n)


class _Stepper:
    async def step(self, x):
        return x


@pytest.mark.parametrize("fn, kind, line", [
    (_fetches, "an async function", _fetches.__code__.co_firstlineno),
    (_yields, "a generator function", _yields.__code__.co_firstlineno),
    (_Stepper().step, "an async function", _Stepper.step.__code__.co_firstlineno),
    (functools.partial(_yields, 3), "a generator function", _yields.__code__.co_firstlineno),
])
def test_a_generator_or_async_function_is_refused(fn, kind, line):
    # Issue 25, bug 7: `ag.function(async_fn)(x)` returned a coroutine.
    with pytest.raises(TypeError, match=rf"^{re.escape(__file__)}:{line}: ag.function cannot "
                                        rf"trace \w+: it is {kind}, whose call returns"):
        ag.function(fn)
