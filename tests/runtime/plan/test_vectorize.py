"""The vectorization pass (runtime/plan/passes/vectorize.py): loops over the elements of
a tensor run as array operations give the answers of the loop run one iteration at a
time, bit for bit, of the same dtype, or the same error.

Each case is a function and its inputs. The oracles: the function run eagerly on
tensors (every op one by one) and, where it is plain Python, run on Python values; the
staged modes are `ag.function` and `ag.to_graph` in a Session, each with the pass on and
off (AUTOGRAPH_VECTORIZE=0). `VECTORIZED` cases must be vectorized and run without a
chunk falling back; the others must be left as they are, for the reason given.
"""

import os
import sys
import warnings

import numpy as np
import pytest
from autograph_py.runtime.plan.passes.vectorize import INTERNAL_ERROR
from autograph_py.runtime.plan.vectorize import emit
from autograph_py.runtime.plan.vectorize.lanes import FALLBACKS

import autograph_py as ag

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples"))
from seed import sum_even  # noqa: E402
from vector_loops import count_above, running_sum_until, squares_into_tensor_array  # noqa: E402
from vector_loops import first_above as first_above_break  # noqa: E402

RNG = np.random.default_rng(27)


@pytest.fixture(autouse=True)
def every_loop_runs_as_arrays(monkeypatch, request):
    """Short loops are left to the loop itself (emit.MIN_TRIPS): the tests here run even
    a loop of one iteration as arrays, but the test of that threshold."""
    if request.node.name != "test_short_loops_run_one_by_one":
        monkeypatch.setattr(emit, "MIN_TRIPS", 1)


def ints(n, low=-100, high=100, dtype=np.int32):
    return RNG.integers(low, high, n).astype(dtype)


def floats(n):
    return (RNG.standard_normal(n) * 10.0 ** RNG.integers(-4, 6, n)).astype(np.float32)


# --- the cases --------------------------------------------------------------------------

def float_sum_masked(x):
    s = ag.constant(-0.0, ag.float32)
    for v in x:
        if v > 1.0:
            s += v
    return s


def product_and_bounds(x):
    p = 1
    lo = 1000
    hi = -1000
    for v in x:
        p *= v
        lo = ag.minimum(lo, v)
        hi = ag.maximum(hi, v)
    return p, lo, hi


def float_max_min(x):
    hi = ag.constant(-np.inf, ag.float32)
    lo = ag.constant(np.inf, ag.float32)
    for v in x:
        hi = ag.maximum(hi, v)
        lo = ag.minimum(lo, v)
    return hi, lo


def all_and_any(x):
    every = ag.constant(True)
    some = ag.constant(False)
    for v in x:
        every = ag.logical_and(every, v > -90)
        some = ag.logical_or(some, v > 95)
    return every, some


def first_above_return(x, t):
    for i in range(ag.shape(x)[0]):
        if x[i] > t:
            return i
    return -1


def last_above(x, t):
    found = -1
    for i, v in enumerate(x):
        if v > t:
            found = i
    return found


def appended_when(x):
    out = []
    for v in x:
        if v % 3 == 0:
            continue
        out.append(v * 2 + 1)
    return ag.stack(out)


def rows_scaled(m, w):
    out = []
    for row in m:
        out.append(row * w)
    return ag.stack(out)


def manual_while(x, n):
    i = 0
    s = 0
    while i < n:
        s += x[i] * 2
        i += 1
    return s, i


def strided_reverse_range(x):
    s = 0
    t = 0
    for i in range(ag.shape(x)[0] - 1, -1, -2):
        s = s + x[i] * 1
        t += i
    return s, t


def zipped(x, y):
    s = 0
    for a, b in zip(x, y):
        if a > b:
            s += a - b
        elif a < b:
            s -= 1
    return s


def nested_choices(x):
    s = 0
    for v in x:
        if v > 50:
            s += 3
        elif v > 0:
            if v % 2 == 0:
                s += v
            else:
                s += 1
    return s


def counts_while_over(x):
    s = 0
    over = 0
    for v in x:
        if s > 100:
            over += 1
        s += v
    return s, over


def subtracts(x):
    s = 1
    for i in range(ag.shape(x)[0]):
        s -= x[i]
    return s


def wraps_int32(x):
    s = 0
    for v in x:
        s += v * 3
    return s


def tensor_array_writes(x):
    """Writes where a condition holds, backwards, and after a write before the loop (the
    in-order shortcut takes none of them: each is a scatter of its indices)."""
    n = ag.shape(x)[0]
    kept = ag.TensorArray(ag.int32, size=n, element_shape=[])
    backwards = ag.TensorArray(ag.int32, size=n)
    shifted = ag.TensorArray(ag.int32, size=n + 1).write(0, ag.constant(7))
    for i in range(n):
        if x[i] > 0:
            kept = kept.write(i, x[i])
        backwards = backwards.write(n - 1 - i, x[i] * 2)
        shifted = shifted.write(i + 1, x[i] + 1)
    return kept.stack(), backwards.stack(), shifted.stack()


def map_then_read(x):
    """A map written whole in order (its written mask a shared read-only row), then
    read, and its first element written again, after the loop."""
    out = ag.TensorArray(ag.int32, size=ag.shape(x)[0])
    for i in range(ag.shape(x)[0]):
        out = out.write(i, x[i] - 1)
    first = out.read(0)
    return out.write(0, first * 3).stack(), first


def signed_zeros(x):
    """Two constants equal as numbers, not as bits (0.0 and -0.0): each its own lanes."""
    s = ag.constant(-0.0, ag.float32)
    t = ag.constant(-0.0, ag.float32)
    for v in x:
        s += ag.abs(v) * 0.0
        t += ag.abs(v) * -0.0
    return s, t


def first_values_over(x, t, level):
    """A `break` setting a lane's value, a counter plus one, and an outer float."""
    value = ag.constant(-1)
    where = -1
    seen = ag.constant(0.5, ag.float32)
    for i in range(ag.shape(x)[0]):
        if x[i] > t:
            value = x[i] * 2
            where = i + 1
            seen = level
            break
    return value, where, seen


VECTORIZED = {
    "sum_even": (sum_even, lambda n: (ints(n),)),
    "count_above": (count_above, lambda n: (ints(n), np.int32(40))),
    "float_sum_masked": (float_sum_masked, lambda n: (floats(n),)),
    "product_and_bounds": (product_and_bounds, lambda n: (ints(n, -3, 4),)),
    "float_max_min": (float_max_min, lambda n: (np.where(
        RNG.random(n) < 0.05, np.float32(np.nan), RNG.choice(
            np.array([-0.0, 0.0, 1.5, -2.0], np.float32), n)).astype(np.float32),)),
    "all_and_any": (all_and_any, lambda n: (ints(n),)),
    "first_above_break": (first_above_break, lambda n: (ints(n), np.int32(97))),
    "first_above_return": (first_above_return, lambda n: (ints(n), np.int32(97))),
    "last_above": (last_above, lambda n: (ints(n), np.int32(90))),
    "squares_into_tensor_array": (squares_into_tensor_array, lambda n: (floats(n),)),
    "appended_when": (appended_when, lambda n: (np.concatenate(
        [np.int32([1]), ints(n - 1)]).astype(np.int32),)),
    "rows_scaled": (rows_scaled, lambda n: (ints(3 * n).reshape(n, 3), ints(3))),
    "manual_while": (manual_while, lambda n: (ints(n), np.int32(n))),
    "strided_reverse_range": (strided_reverse_range, lambda n: (ints(n),)),
    "zipped": (zipped, lambda n: (ints(n), ints(n))),
    "nested_choices": (nested_choices, lambda n: (ints(n),)),
    "running_sum_break": (running_sum_until, lambda n: (ints(n, 0, 20), np.int32(4 * n))),
    "subtracts": (subtracts, lambda n: (ints(n),)),
    "wraps_int32": (wraps_int32, lambda n: (ints(n, 2**29, 2**30),)),
    "counts_while_over": (counts_while_over, lambda n: (ints(n, -5, 20),)),
    "tensor_array_writes": (tensor_array_writes, lambda n: (ints(n),)),
    "map_then_read": (map_then_read, lambda n: (ints(n),)),
    "signed_zeros": (signed_zeros, lambda n: (floats(n),)),
    "first_values_over": (first_values_over, lambda n: (ints(n), np.int32(97),
                                                        np.float32(-2.5))),
}

# Lengths: empty (but where the eager function cannot stack an empty list), one, a few,
# and several chunks.
LENGTHS = (0, 1, 7, 3000)
NEEDS_ONE = {"rows_scaled", "appended_when", "tensor_array_writes", "map_then_read"}


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and \
        got.tobytes() == want.tobytes()


def assert_same(got, want):
    """Bit for bit and of the same dtype; a Python scalar (what an eager loop that ran
    no iteration returns) stands for a tensor of the staged value's dtype."""
    got, want = ag.nest.flatten(got), ag.nest.flatten(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, (bool, int, float)):
            w = np.asarray(w, np.asarray(g).dtype)
        assert same(g, w), (np.asarray(g), np.asarray(w))


def eager(fn, inputs):
    return fn(*map(ag.constant, inputs))


def staged_function(fn, inputs, vectorize=True, signature=None):
    with _vectorize(vectorize):
        f = ag.function(fn, input_signature=signature)
        result = f(*map(ag.constant, inputs))
        plan = f.get_concrete_function(*map(ag.constant, inputs))._plan
    return result, plan


def staged_session(fn, inputs, vectorize=True):
    with _vectorize(vectorize), ag.Graph().as_default() as graph:
        holders = [ag.placeholder(ag.as_dtype(np.asarray(v).dtype), np.shape(v))
                   for v in inputs]
        out = ag.to_graph(fn)(*holders)
        with ag.Session(graph) as session:
            return session.run(out, dict(zip(holders, inputs)))


class _vectorize:
    def __init__(self, on):
        self.on = on

    def __enter__(self):
        self.saved = os.environ.get("AUTOGRAPH_VECTORIZE")
        os.environ["AUTOGRAPH_VECTORIZE"] = "1" if self.on else "0"
        return self

    def __exit__(self, *exc):
        if self.saved is None:
            del os.environ["AUTOGRAPH_VECTORIZE"]
        else:
            os.environ["AUTOGRAPH_VECTORIZE"] = self.saved


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("name", sorted(VECTORIZED))
def test_vectorized_loops_give_the_sequential_answer(name, length):
    fn, make_inputs = VECTORIZED[name]
    if length == 0 and name in NEEDS_ONE:
        length = 1
    inputs = make_inputs(length)
    want = eager(fn, inputs)
    FALLBACKS.clear()
    got, plan = staged_function(fn, inputs)
    assert [reason for _, reason in plan.vectorized] == [None]
    assert FALLBACKS == []
    assert_same(got, want)
    assert_same(staged_function(fn, inputs, vectorize=False)[0], want)
    assert_same(staged_session(fn, inputs), want)
    assert "# vectorized: the loop at" in plan.code


def test_python_values_agree_with_the_staged_loops():
    """Plain Python on lists (the third mode) for the cases written in plain Python."""
    for name in ("sum_even", "count_above", "nested_choices", "zipped", "last_above"):
        fn, make_inputs = VECTORIZED[name]
        inputs = make_inputs(200)
        python_inputs = [v.tolist() if np.ndim(v) else int(v) for v in inputs]
        assert int(fn(*python_inputs)) == int(np.asarray(staged_function(fn, inputs)[0]))


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(emit, "FIRST_CHUNK", 3)
    monkeypatch.setattr(emit, "MAX_CHUNK", 7)


@pytest.mark.parametrize("name", ["sum_even", "first_above_break", "running_sum_break",
                                  "tensor_array_writes", "first_values_over",
                                  "appended_when", "squares_into_tensor_array", "last_above",
                                  "float_sum_masked", "strided_reverse_range"])
def test_chunk_boundaries(small_chunks, name):
    fn, make_inputs = VECTORIZED[name]
    for length in (1, 2, 3, 4, 7, 8, 29, 100):
        inputs = make_inputs(length)
        got, plan = staged_function(fn, inputs)
        assert [reason for _, reason in plan.vectorized] == [None]
        assert_same(got, eager(fn, inputs))


def test_short_loops_run_one_by_one():
    x = ints(emit.MIN_TRIPS - 1)
    FALLBACKS.clear()
    got, plan = staged_function(sum_even, (x,))
    assert [reason for _, reason in plan.vectorized] == [None]
    assert_same(got, eager(sum_even, (x,)))
    assert f"if total < {emit.MIN_TRIPS}:" in plan.code


def test_a_search_stops_where_the_loop_does():
    x = np.zeros(50_000, np.int32)
    for hit in (0, 1, 1023, 1024, 1025, 9000, 49_999):
        x[:] = 0
        x[hit] = 5
        got, _ = staged_function(first_above_break, (x, np.int32(1)))
        assert int(np.asarray(got)) == hit
    x[:] = 0
    assert int(np.asarray(staged_function(first_above_break, (x, np.int32(1)))[0])) == -1


# --- what falls back, and errors ----------------------------------------------------------

def divides_in_untaken_branch(x, d):
    s = 0
    for i in range(ag.shape(x)[0]):
        if d[i] != 0:
            s += x[i] // d[i]
    return s


def reads_past_the_end(x):
    s = 0
    for i in range(ag.shape(x)[0] + 1):
        s += x[i]
    return s


def test_a_chunk_that_cannot_run_exactly_runs_one_by_one():
    """An integer division by zero in a lane the loop never runs: the chunk falls back
    and the loop gives the answer."""
    x, d = ints(100), ints(100, -2, 3)
    FALLBACKS.clear()
    got, plan = staged_function(divides_in_untaken_branch, (x, d))
    assert [reason for _, reason in plan.vectorized] == [None]
    assert len(FALLBACKS) == 1
    assert_same(got, eager(divides_in_untaken_branch, (x, d)))


def test_the_same_error_as_the_loop():
    x = ints(10)
    with pytest.raises(ag.errors.OpError) as off:
        staged_function(reads_past_the_end, (x,), vectorize=False)
    with pytest.raises(ag.errors.OpError) as on:
        staged_function(reads_past_the_end, (x,))
    assert type(on.value.cause) is type(off.value.cause)
    assert str(on.value) == str(off.value)


def resets(x):
    s = 0
    for v in x:
        if s > 50:
            s = 0
        else:
            s += v
    return s


def horner(x):
    s = 0
    for v in x:
        s = s * 3 + v
    return s


def prints(x):
    s = 0
    for v in x:
        ag.print(v)
        s += v
    return s


def nested(x):
    s = 0
    for v in x:
        for w in x:
            s += v * w
    return s


def mixed_changes(x):
    s = 0
    for v in x:
        if v > 0:
            s = v
        else:
            s += 1
    return s


LEFT_ALONE = {
    resets: "'s' is changed in two ways in one loop (fold, set)",
    horner: "is computed from its value by Add",
    prints: "an op with effects",
    mixed_changes: "'s' is changed in two ways in one loop (fold, set)",
}


@pytest.mark.parametrize("fn", list(LEFT_ALONE), ids=lambda fn: fn.__name__)
def test_loops_left_as_they_are_say_why(fn, capsys):
    x = ints(40, 0, 30)
    got, plan = staged_function(fn, (x,))
    (reason,) = [reason for _, reason in plan.vectorized]
    assert reason is not None and LEFT_ALONE[fn] in reason
    assert_same(got, eager(fn, (x,)))


def test_only_the_inner_of_nested_loops():
    x = ints(30)
    got, plan = staged_function(nested, (x,))
    reasons = [reason for _, reason in plan.vectorized]
    assert reasons == ["it has a loop inside", None]
    assert_same(got, eager(nested, (x,)))


def test_no_internal_errors_in_the_corpus():
    """The pass's own bugs leave loops alone (the program still runs): none may happen."""
    sys.path.insert(0, os.path.dirname(__file__))
    from plan_corpus import CASES, build, plan_of
    for name in CASES:
        plan = plan_of(build(name))
        for _, reason in plan.vectorized:
            assert not (reason or "").startswith(INTERNAL_ERROR), (name, reason)


def reads_another_fold(x):
    s = 0
    t = 0
    for v in x:
        s += v
        t += s
    return s, t


def swaps(x):
    a = 0
    b = 1
    for _ in x:
        a, b = b, b + a
    return a, b


def test_a_fold_of_another_variable_is_a_scan():
    x = ints(300, -5, 5)
    FALLBACKS.clear()
    got, plan = staged_function(reads_another_fold, (x,))
    assert [reason for _, reason in plan.vectorized] == [None]
    assert FALLBACKS == []
    assert_same(got, eager(reads_another_fold, (x,)))


def test_variables_that_read_each_other_are_left_alone():
    x = ints(30, 0, 3)
    got, plan = staged_function(swaps, (x,))
    (reason,) = [reason for _, reason in plan.vectorized]
    assert "is read where its own update is decided" in reason
    assert_same(got, eager(swaps, (x,)))


def test_an_unknown_length_is_a_bound():
    """`for v in x` over x of shape (None,): the length is computed in the body."""
    x = ints(500)
    signature = [ag.TensorSpec([None], ag.int32)]
    for fn in (sum_even, subtracts, last_above):
        inputs = (x,) if fn is not last_above else (x, np.int32(90))
        spec = signature if fn is not last_above else signature + [ag.TensorSpec([], ag.int32)]
        got, plan = staged_function(fn, inputs, signature=spec)
        assert [reason for _, reason in plan.vectorized] == [None], fn.__name__
        assert_same(got, eager(fn, inputs))


def test_a_range_over_an_empty_tensor_traces_its_reads():
    """`x[i]` in a staged loop over range(len(x)) of a tensor of static length 0: shape
    inference once refused the index (found by the fuzzer); the loop runs no iteration."""
    x = np.zeros(0, np.int32)
    for fn in (first_above_break, subtracts):
        inputs = (x, np.int32(1)) if fn is first_above_break else (x,)
        assert_same(staged_function(fn, inputs)[0], eager(fn, inputs))


def test_a_scatter_of_every_row_in_order_is_the_rows():
    """The scatter kernel's shortcut for a TensorArray written whole, in order (what a
    vectorized map does), against writes one by one."""
    rows = ints(12).reshape(4, 3)
    whole = ag.TensorArray(ag.int32, size=4).scatter([0, 1, 2, 3], ag.constant(rows))
    one_by_one = ag.TensorArray(ag.int32, size=4)
    for i in range(4):
        one_by_one = one_by_one.write(i, ag.constant(rows[i]))
    assert_same(whole.stack(), one_by_one.stack())
    grown = ag.TensorArray(ag.int32, size=0, dynamic_size=True).scatter(
        [0, 1, 2, 3], ag.constant(rows))
    assert_same(grown.stack(), one_by_one.stack())


def counts_down_from_the_left(x):
    """`n > i`: the bound on the left of the comparison, computed in the body."""
    i = 0
    s = 0
    while ag.shape(x)[0] > i:
        s += x[i]
        i += 1
    return s


def test_a_bound_on_the_left_of_the_comparison():
    x = ints(300)
    got, plan = staged_function(counts_down_from_the_left, (x,),
                                signature=[ag.TensorSpec([None], ag.int32)])
    assert [reason for _, reason in plan.vectorized] == [None]
    assert_same(got, eager(counts_down_from_the_left, (x,)))


def offset_set_near_the_top(c):
    """`found = i + c` where x[k] > t (the last time, and at a `break`), for a counter i
    running up to the top of int32."""
    def fn(x, start, t):
        i = start
        found = 0
        first = 0
        while i < start + ag.shape(x)[0]:
            if x[i - start] > t:
                found = i + c
            i += 1
        i = start - 1
        while i < start + ag.shape(x)[0] - 1:
            i += 1
            if x[i - start] > t:
                first = i + c
                break
        return found, first, i
    return fn


def offset_set_near_the_bottom(c):
    """The same for a counter running down to the bottom of int32: `found = i - c`."""
    def fn(x, start, t):
        i = start
        found = 0
        first = 0
        while i > start - ag.shape(x)[0]:
            if x[start - i] > t:
                found = i - c
            i -= 1
        i = start + 1
        while i > start - ag.shape(x)[0] + 1:
            i -= 1
            if x[start - i] > t:
                first = i - c
                break
        return found, first, i
    return fn


@pytest.mark.parametrize("c", [0, 1, 2, 3])
def test_counter_offsets_at_the_ends_of_the_dtype(c):
    """A lane value `i + c` the loop would wrap: the counter's own range check covers
    `i` and `i + 1` (the test's value), so no other check is made for c in (0, 1); for
    c >= 2 the last lanes leave int32, the chunk falls back and the loop wraps them."""
    x = np.zeros(100, np.int32)
    x[-1] = 99  # (the last element hits: its lane is the one that leaves the range)
    # (the counter's last test value is the dtype's end itself)
    for make, start in ((offset_set_near_the_top, 2**31 - 1 - 100),
                        (offset_set_near_the_bottom, -2**31 + 100)):
        fn = make(c)
        inputs = (x, np.int32(start), np.int32(50))
        FALLBACKS.clear()
        got, plan = staged_function(fn, inputs)
        assert [reason for _, reason in plan.vectorized] == [None, None]
        assert len(FALLBACKS) == 2 * (c >= 2)
        assert_same(got, eager(fn, inputs))
        assert_same(staged_session(fn, inputs), eager(fn, inputs))


def test_warnings_are_silenced_only_where_numpy_may_warn():
    """A vectorized loop of comparisons and max (NaN compares False, silently) runs
    without numpy's errstate switch; one whose float sum overflows keeps it: neither
    warns, as TensorFlow does not."""
    search = floats(500)
    search[::7] = np.nan
    big = np.full(500, 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fn, inputs, quiet in ((first_above_break, (search, np.float32(1e5)), True),
                                  (float_max_min, (search,), True),
                                  (float_sum_masked, (big,), False)):
            got, plan = staged_function(fn, inputs)
            assert [reason for _, reason in plan.vectorized] == [None]
            assert ("set_errstate" not in plan.code) == quiet
            assert_same(got, eager(fn, inputs))


def test_a_traced_length_runs_one_chunk_without_a_bound():
    """A counter from a constant to a bound the static shape fixes: the number of
    iterations is known when the plan is compiled, so one chunk runs them (no bound
    computed, no chunk loop); an unknown length computes it. Same answers."""
    x = ints(300)
    for fn, inputs in ((sum_even, (x,)), (first_above_break, (x, np.int32(97))),
                       (squares_into_tensor_array, (floats(300),))):
        known, plan = staged_function(fn, inputs)
        assert [reason for _, reason in plan.vectorized] == [None]
        assert "bound_trips" not in plan.code and "while chunk" not in plan.code
        signature = [ag.TensorSpec([None] * np.ndim(v), ag.as_dtype(np.asarray(v).dtype))
                     for v in inputs]
        unknown, plan = staged_function(fn, inputs, signature=signature)
        assert "bound_trips" in plan.code
        assert_same(unknown, known)
        assert_same(known, eager(fn, inputs))
