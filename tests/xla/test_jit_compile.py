"""`ag.function(jit_compile=True)` (issue 13): the lowering table covers the registry,
state and effects behave as in the numpy runtime (the oracle: the same function through
`ag.function` without jit_compile), and what cannot be compiled fails at trace time
naming the op and the user's line."""

import json
import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.xla import call
from autograph_py.runtime.xla.table import LoweringError

import autograph_py as ag

HERE = os.path.basename(__file__)


def both(fn, *args):
    """fn through the numpy runtime and compiled: (expected, actual) as numpy values."""
    expected = ag.function(fn)(*args)
    actual = ag.function(fn, jit_compile=True)(*args)
    return expected, actual


def test_every_registered_op_has_a_lowering_or_a_reason():
    # In a fresh interpreter: other tests register ops of their own in this one.
    # autograph_py.api: the package's API loads lazily, and with it ops such as the
    # datasets' ShuffleIndices.
    code = ("import json\n"
            "import autograph_py.api\n"
            "from autograph_py.runtime import registry\n"
            "from autograph_py.runtime.xla import call, rules\n"
            "from autograph_py.runtime.xla.table import UNLOWERABLE, lowered_names\n"
            "names = registry.registered_names()\n"
            "print(json.dumps([names, lowered_names(), sorted(UNLOWERABLE)]))\n")
    result = _run_python(code)
    names, lowered, unlowerable = json.loads(result.stdout)
    assert len(names) > 100, result.stderr
    assert [n for n in names if n not in lowered and n not in unlowerable] == []
    assert set(unlowerable) <= set(names)


def test_variables_are_threaded_in_and_written_back():
    def step(v, x):
        v.assign_add(x)
        v.assign(v * 2.0)
        return v.read_value() + 1.0

    results = []
    for jit in (False, True):
        v = ag.Variable([1.0, 2.0])
        f = ag.function(step, jit_compile=jit)
        outs = [f(v, ag.constant([0.5, -1.0])).numpy() for _ in range(3)]
        results.append((outs, v.numpy()))
    np.testing.assert_array_equal(results[1][0], results[0][0])
    np.testing.assert_array_equal(results[1][1], results[0][1])


def test_variable_assigned_in_a_staged_loop_and_branch():
    def count(v, n):
        i = 0
        while i < n:
            if i % 2 == 0:
                v.assign_add(i)
            i += 1
        return v.read_value()

    for n in (0, 1, 6):
        v_numpy, v_jit = ag.Variable(10), ag.Variable(10)
        expected = ag.function(count)(v_numpy, ag.constant(n))
        actual = ag.function(count, jit_compile=True)(v_jit, ag.constant(n))
        assert actual.numpy() == expected.numpy() and v_jit.numpy() == v_numpy.numpy()


def test_print_gives_the_numpy_runtimes_text_in_order(capsys):
    def show(x, n):
        i = 0
        while i < n:
            ag.print("step", i, "x =", x)
            x = x * 2.0
            i += 1
        return x

    ag.function(show)(ag.constant([1.0, 2.5]), ag.constant(3))
    expected = capsys.readouterr().out
    ag.function(show, jit_compile=True)(ag.constant([1.0, 2.5]), ag.constant(3))
    assert capsys.readouterr().out == expected != ""


def test_failed_assert_raises_on_return_with_data_and_line():
    def checked(v, x):
        v.assign(x)
        ag.debugging.Assert(x > 0, ["x must be positive, got", x])
        return x + 1

    v = ag.Variable(0)
    f = ag.function(checked, jit_compile=True)
    assert f(v, ag.constant(4)).numpy() == 5 and v.numpy() == 4
    with pytest.raises(InvalidArgumentError, match=rf"got -3(.|\n)*{HERE}:\d+"):
        f(v, ag.constant(-3))
    assert v.numpy() == 4  # a failed call writes no Variable back


def test_integer_division_by_zero_names_the_op_and_line():
    def divide(a, b):
        return a // b

    f = ag.function(divide, jit_compile=True)
    assert f(ag.constant(7), ag.constant(2)).numpy() == 3
    with pytest.raises(ZeroDivisionError, match=rf"FloorDiv(.|\n)*{HERE}:\d+"):
        f(ag.constant(7), ag.constant(0))


def test_index_out_of_range_raises_index_error():
    def pick(x, i):
        return x[i]

    f = ag.function(pick, jit_compile=True)
    assert f(ag.constant([1, 2, 3]), ag.constant(-1)).numpy() == 3
    with pytest.raises(IndexError, match=HERE):
        f(ag.constant([1, 2, 3]), ag.constant(3))


def test_an_op_that_cannot_be_compiled_fails_at_trace_time_naming_op_and_line():
    def ragged(n):
        return ag.range(n) * 2  # the result's length is n, a run-time value

    with pytest.raises(LoweringError, match=rf"'Range'.*{HERE}:\d+.*static shapes"):
        ag.function(ragged, jit_compile=True)(ag.constant(3))


def test_a_loop_variable_that_changes_shape_names_the_variable():
    def grow(x, n):
        i = 0
        while i < n:
            ag.set_loop_options(shape_invariants=[(x, [None])])
            x = ag.concat([x, x], 0)
            i += 1
        return x

    with pytest.raises(LoweringError, match=rf"'While'.*{HERE}:\d+.*loop variable 'x'"):
        ag.function(grow, jit_compile=True)(ag.constant([1.0]), ag.constant(2))


def test_maximum_iterations_bounds_the_loop():
    def bounded(x):
        while x < 100:
            ag.set_loop_options(maximum_iterations=4)
            x = x * 2
        return x

    for x in (1, 50, 200):
        expected, actual = both(bounded, ag.constant(x))
        assert actual.numpy() == expected.numpy()


def test_random_draws_are_reproducible_with_set_seed_and_distributed_as_asked():
    def draw():
        return ag.random.uniform([20000], minval=2.0, maxval=4.0), ag.random.normal([20000])

    f = ag.function(draw, jit_compile=True)
    ag.random.set_seed(7)
    first = [t.numpy() for t in f()]
    second = [t.numpy() for t in f()]
    ag.random.set_seed(7)
    again = [t.numpy() for t in f()]
    np.testing.assert_array_equal(first[0], again[0])
    assert not np.array_equal(first[0], second[0])  # a new key per call
    uniform, normal = first
    assert uniform.min() >= 2.0 and uniform.max() < 4.0
    # Oracle: the moments of U(2, 4) and N(0, 1), within 5 standard errors.
    assert abs(uniform.mean() - 3.0) < 5 * (2 / np.sqrt(12)) / np.sqrt(20000)
    assert abs(normal.mean()) < 5 / np.sqrt(20000) and abs(normal.std() - 1) < 0.03


def test_input_signature_with_unknown_dims_compiles_per_shape():
    def total(x):
        s = ag.constant(0.0)
        for v in x:
            s = s + v
        return s

    f = ag.function(total, jit_compile=True,
                    input_signature=[ag.TensorSpec([None], ag.float32)])
    for values in ([1.0, 2.0], [0.5, 0.25, 4.0]):
        assert f(ag.constant(values)).numpy() == pytest.approx(sum(values))
    assert f.trace_count == 1


def test_methods_compile_per_instance():
    class Scale:
        def __init__(self, factor):
            self.factor = ag.Variable(factor)

        @ag.function(jit_compile=True)
        def __call__(self, x):
            return x * self.factor

    a, b = Scale(2.0), Scale(3.0)
    assert a(ag.constant(1.5)).numpy() == 3.0 and b(ag.constant(1.5)).numpy() == 4.5


def test_set_default_jit_compile_compiles_functions_that_do_not_choose(monkeypatch):
    runs = []  # one compiled graph made per function that compiles
    original = call.CompiledGraph.__init__
    monkeypatch.setattr(call.CompiledGraph, "__init__",
                        lambda self, *args: runs.append(1) or original(self, *args))
    ag.config.set_default_jit_compile(True)
    try:
        assert ag.function(lambda x: x + 1)(ag.constant(1)).numpy() == 2
        assert ag.function(lambda x: x + 1, jit_compile=False)(ag.constant(1)).numpy() == 2
    finally:
        ag.config.set_default_jit_compile(False)
    assert runs == [1]


def _run_python(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_the_environment_variable_sets_the_default():
    result = _run_python("import autograph_py as ag; print(ag.config.default_jit_compile())",
                         AUTOGRAPH_JIT_COMPILE="1")
    assert result.stdout.strip() == "True", result.stderr


def test_without_jax_jit_compile_is_an_import_error_naming_the_extra():
    code = ("import sys; sys.modules['jax'] = None\n"
            "import autograph_py as ag\n"
            "assert ag.function(lambda x: x)(ag.constant(1)).numpy() == 1\n"
            "try:\n"
            "    ag.function(lambda x: x, jit_compile=True)\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    result = _run_python(code)
    assert "[xla]" in result.stdout, result.stderr


def test_the_branch_not_taken_never_raises():
    def safe_divide(a, b):
        if b != 0:
            r = a // b  # small and pure: both branches computed, then selected
        else:
            r = a * 0
        return r

    for b in (0, 3):
        expected, actual = both(safe_divide, ag.constant(7), ag.constant(b))
        assert actual.numpy() == expected.numpy()


def test_a_list_appended_in_a_loop_of_static_length_compiles_unrolled():
    def squares(xs):
        out = []
        for x in xs:
            out.append(x * x)
        return ag.stack(out) + 0.5

    expected, actual = both(squares, ag.constant([1.0, -2.0, 3.5]))
    np.testing.assert_array_equal(actual.numpy(), expected.numpy())


def test_a_list_of_data_dependent_length_names_the_variable():
    def positives(xs):
        out = []
        i = 0
        while i < len(xs) and xs[i] > 0:
            out.append(xs[i])
            i += 1
        return ag.stack(out)

    with pytest.raises(LoweringError, match=rf"'While'.*{HERE}:\d+.*'out'"):
        ag.function(positives, jit_compile=True)(ag.constant([1.0, 2.0, -1.0]))


@pytest.mark.parametrize("effect", [False, True])  # a select, then a lax.cond
def test_branches_giving_different_shapes_name_the_op(effect):
    def one_sided(x):
        out = []
        if x > 0:
            if effect:
                ag.print("appending")
            out.append(x)
        return ag.reduce_sum(ag.stack(out, 0)) if out else x

    with pytest.raises(LoweringError, match=rf"'(Stateful)?If'.*{HERE}:\d+.*one shape"):
        ag.function(one_sided, jit_compile=True)(ag.constant(2.0))


@pytest.mark.parametrize("effect", [False, True])  # a select, then a lax.cond
def test_branches_giving_different_shapes_name_the_variable(effect):
    def doubled_when_positive(x):
        if ag.reduce_sum(x) > 0:
            if effect:
                ag.print("doubling")
            y = ag.concat([x, x], 0)
        else:
            y = x
        return y

    with pytest.raises(LoweringError, match=r"'y' is float32\[2\] on one path and "
                                            r"float32\[1\] on another"):
        ag.function(doubled_when_positive, jit_compile=True)(ag.constant([1.0]))


def test_a_failed_check_ends_the_loop_it_is_in():
    def scan_to_five(xs, i):
        # With i past the end the numpy runtime raises at xs[i]; compiled, the failed
        # index check must end the loop too (zeros read past it would never reach 5).
        while xs[i] != 5:
            i += 1
        return i

    f = ag.function(scan_to_five, jit_compile=True)
    assert f(ag.constant([1, 2, 5]), ag.constant(0)).numpy() == 2
    with pytest.raises(IndexError, match=HERE):
        f(ag.constant([1, 2, 3]), ag.constant(0))


def test_threads_calling_one_compiled_function():
    def collatz(n):
        steps = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    f = ag.function(collatz, jit_compile=True)
    starts = list(range(2, 30))
    expected = [collatz(n) for n in starts]
    results = {}

    def work(k):
        results[k] = [int(f(ag.constant(n)).numpy()) for n in starts]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: expected for k in range(4)}


def test_an_integer_mean_does_not_wrap_in_32_bits():
    # The lowering sums integers in int64, as the numpy kernel does; a 32-bit graph must
    # still compile it in 64-bit mode (it wrapped to -357913941 when it did not).
    values = ag.constant(np.array([2**30, 2**30, 2**30], np.int32))
    expected = ag.function(ag.reduce_mean)(values).numpy()
    assert ag.function(ag.reduce_mean, jit_compile=True)(values).numpy() == expected


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64, np.int64])
def test_results_keep_their_dtype_with_or_without_64_bit_mode(dtype):
    values = ag.constant(np.arange(5).astype(dtype))

    def scaled_sum(x):
        return ag.reduce_sum(x * 3) + x[0]

    expected = ag.function(scaled_sum)(values)
    actual = ag.function(scaled_sum, jit_compile=True)(values)
    assert actual.dtype == expected.dtype
    assert actual.numpy() == expected.numpy()
