"""The compiled plan's fast paths give what the kernels give (runtime/plan/expressions.py,
runtime/plan/source.py): operators on rank-0 numbers (integer wraparound, integer division
by zero, NaN and inf, result dtypes), direct scalar indexing, and If/While inlined as
Python `if`/`while`.

Oracles: numpy's ufuncs on 0-d arrays (what the kernels run, eager mode), the same
function as plain Python, and the `While`/`If` kernels run on the same inputs (the
non-inlined path: one subgraph plan call per iteration or branch). Each case runs as a
Session plan and through `ag.function`; the plan's source is checked to take the path
under test.
"""

import re
import warnings

import numpy as np
import pytest
from autograph_py.runtime import nest, registry

import autograph_py as ag
from tests.converters.corpus import sum_even

INT_CASES = [  # (dtype, x, y): values at the edges of the dtype's range
    (np.int32, 2**31 - 1, 1), (np.int32, -2**31, -1), (np.int32, 65536, 65536),
    (np.int64, 2**63 - 1, 2), (np.int8, 127, 100), (np.uint8, 3, 250), (np.int16, -7, 3),
]
ARITHMETIC = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply)]


def _session_and_function(fn, *arrays):
    """(Session result, ag.function result, the Session plan's source) of fn(*arrays)."""
    graph = ag.Graph()
    with graph.as_default():
        holders = [ag.placeholder(ag.as_dtype(a.dtype), shape=a.shape) for a in arrays]
        out = fn(*holders)
    with ag.Session(graph) as sess:
        feeds = dict(zip(holders, arrays))
        session_result = sess.run(out, feeds)
        code = sess.code(out, holders)
    function_result = ag.function(fn)(*[ag.constant(a) for a in arrays]).numpy()
    return session_result, function_result, code


def _assert_same(result, expected):
    result, expected = np.asarray(result), np.asarray(expected)
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype, x, y", INT_CASES)
@pytest.mark.parametrize("name, ufunc", ARITHMETIC)
def test_integer_arithmetic_wraps_around_as_the_kernel(dtype, x, y, name, ufunc):
    a, b = np.asarray(x, dtype), np.asarray(y, dtype)
    with np.errstate(over="ignore"):
        expected = ufunc(a, b)  # the kernel's ufunc on 0-d arrays wraps
    op = getattr(ag, name)
    eager = op(ag.constant(a), ag.constant(b)).numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning either
        session, function, code = _session_and_function(op, a, b)
    body = code.split("try:")[1].split("except")[0]
    assert not re.search(r"\b[A-Z]\w*\(", body)  # an operator, no kernel (named as its op)
    for result in (eager, session, function):
        _assert_same(result, expected)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_negating_the_smallest_integer_wraps(dtype):
    a = np.asarray(np.iinfo(dtype).min, dtype)
    session, function, _ = _session_and_function(ag.negative, a)
    for result in (session, function):
        _assert_same(result, np.negative(a))


@pytest.mark.parametrize("name", ["floordiv", "mod"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_integer_division_by_zero_raises_the_kernels_error(name, dtype):
    a, zero = np.asarray(7, dtype), np.asarray(0, dtype)
    op = getattr(ag, name)
    with pytest.raises(ZeroDivisionError) as kernel_error:  # the oracle: the kernel itself
        registry.get("FloorDiv" if name == "floordiv" else "FloorMod").kernel(a, zero)
    graph = ag.Graph()
    with graph.as_default():
        x, y = (ag.placeholder(ag.as_dtype(dtype), shape=()) for _ in range(2))
        out = op(x, y)
    with ag.Session(graph) as sess:
        assert " if " in sess.code(out, [x, y])  # an operator, the kernel when y == 0
        with pytest.raises(ZeroDivisionError) as session_error:
            sess.run(out, {x: a, y: zero})
        assert sess.run(out, {x: a, y: np.asarray(2, dtype)}) == getattr(
            np, "floor_divide" if name == "floordiv" else "mod")(a, np.asarray(2, dtype))
    assert str(session_error.value.__cause__) == str(kernel_error.value)
    assert "op '" in str(session_error.value)  # the OpError names the op
    with pytest.raises(ZeroDivisionError):
        ag.function(op)(ag.constant(a), ag.constant(zero))


def test_the_smallest_integer_floor_divided_by_minus_one_matches_the_kernel():
    a, b = np.asarray(-2**31, np.int32), np.asarray(-1, np.int32)
    with np.errstate(all="ignore"):
        expected = np.floor_divide(a, b), np.mod(a, b)
    for op, want in zip((ag.floordiv, ag.mod), expected):
        session, function, _ = _session_and_function(op, a, b)
        _assert_same(session, want)
        _assert_same(function, want)


FLOAT_CASES = [(np.float32, np.nan, 1.0), (np.float64, 1.0, np.nan), (np.float32, np.inf, -np.inf),
               (np.float32, 3.0e38, 3.0e38), (np.float64, 1.0, 0.0), (np.float32, -0.0, 0.0)]
FLOAT_OPS = ARITHMETIC + [("divide", np.true_divide), ("floordiv", np.floor_divide),
                          ("mod", np.mod), ("less", np.less), ("equal", np.equal),
                          ("not_equal", np.not_equal), ("greater_equal", np.greater_equal)]


@pytest.mark.parametrize("dtype, x, y", FLOAT_CASES)
@pytest.mark.parametrize("name, ufunc", FLOAT_OPS)
def test_nan_inf_and_overflow_pass_silently_as_in_the_kernel(dtype, x, y, name, ufunc):
    a, b = np.asarray(x, dtype), np.asarray(y, dtype)
    with np.errstate(all="ignore"):
        expected = ufunc(a, b)
    op = getattr(ag, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eager = op(ag.constant(a), ag.constant(b)).numpy()
        session, function, _ = _session_and_function(op, a, b)
    for result in (eager, session, function):
        _assert_same(result, expected)
        assert np.signbit(result) == np.signbit(expected)


def test_logical_ops_on_scalars_give_numpy_bools():
    for x in (False, True):
        for y in (False, True):
            a, b = np.asarray(x), np.asarray(y)
            for op, ufunc in ((ag.logical_and, np.logical_and), (ag.logical_or, np.logical_or),
                              (ag.logical_xor, np.logical_xor)):
                session, function, _ = _session_and_function(op, a, b)
                _assert_same(session, ufunc(a, b))
                _assert_same(function, ufunc(a, b))
            session, function, code = _session_and_function(ag.logical_not, a)
            assert "not placeholder" in code  # bools are Python bools in the plan
            _assert_same(session, np.logical_not(a))
            _assert_same(function, np.logical_not(a))


# --- scalar indexing ------------------------------------------------------------------------


@pytest.mark.parametrize("index", [0, 2, -1, -3])
def test_gather_and_indexing_with_a_scalar_index_index_directly(index):
    items = np.arange(12, dtype=np.float32).reshape(4, 3)
    i = np.asarray(index, np.int32)
    cases = [(lambda x, i: x[i, 1:], items[index, 1:]),
             (lambda x, i: x[1, ::2] + x[i, 0], items[1, ::2] + items[index, 0])]
    if index >= 0:  # gather takes none below 0 (TF's rule, tests/runtime/test_gather_indices.py)
        cases += [(lambda x, i: ag.gather(x, i), np.take(items, i, axis=0)),
                  (lambda x, i: ag.gather(x, i, axis=1), np.take(items, i, axis=1))]
    for fn, expected in cases:
        session, function, code = _session_and_function(fn, items, i)
        # read directly; gather calls its kernel only for an index outside [0, size)
        assert "StridedSlice" not in code and re.search(r"= \(?placeholder\[", code)
        _assert_same(session, expected)
        _assert_same(function, expected)


def _kernel_message(error):
    """The kernel's own words in an eager op's error ("Op: words (inputs: ...)")."""
    return str(error).split(": ", 1)[1].rsplit(" (inputs: ", 1)[0]


@pytest.mark.parametrize("index", [4, -5, -1])
def test_an_index_out_of_range_raises_the_kernels_index_error_naming_the_op(index):
    items = np.arange(4, dtype=np.int32)
    for fn in (lambda x, i: ag.gather(x, i), lambda x, i: x[i]):
        try:  # the oracle: what the kernel raises eagerly (numpy's IndexError for x[i])
            expected = fn(ag.constant(items), ag.constant(np.int32(index))).numpy()
        except IndexError as e:
            expected = e
        graph = ag.Graph()
        with graph.as_default():
            x = ag.placeholder(ag.int32, shape=[4])
            i = ag.placeholder(ag.int32, shape=())
            out = fn(x, i)
        with ag.Session(graph) as sess:
            if not isinstance(expected, IndexError):
                assert sess.run(out, {x: items, i: np.asarray(index, np.int32)}) == expected
                continue
            with pytest.raises(type(expected)) as session_error:
                sess.run(out, {x: items, i: np.asarray(index, np.int32)})
        assert _kernel_message(expected) in str(session_error.value)
        assert "op '" in str(session_error.value)


# --- If and While inlined ------------------------------------------------------------------


def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def countdown_with_limit(n):
    return ag.while_loop(lambda i, s: i > 0, lambda i, s: (i - 1, s + i * i), [n, 0],
                         maximum_iterations=5)


def _control_flow_ops(graph):
    return [op for op in graph.get_operations() if op.type in (
        "If", "StatefulIf", "While")]


def _kernel_results(graph, sess, feeds):
    """The graph's single control-flow op run by its kernel on the same inputs: one
    subgraph plan call per iteration / branch (the non-inlined path)."""
    (op,) = _control_flow_ops(graph)
    inputs = sess.run(list(op.inputs), feeds)
    return registry.get(op.type).kernel(sess, *inputs, **op.attrs)


@pytest.mark.parametrize("fn, arg, python", [
    (collatz_steps, 27, collatz_steps(27)), (collatz_steps, 1, 0),
    (sum_even, [10, 12, 15, 20, -4, 7], sum_even([10, 12, 15, 20, -4, 7])),
    (sum_even, [], 0),
    (countdown_with_limit, 9, (4, sum(i * i for i in range(5, 10)))),
])
def test_inlined_control_flow_equals_the_kernels_and_python(fn, arg, python):
    value = np.asarray(arg, np.int32)
    graph = ag.Graph()
    with graph.as_default():
        holder = ag.placeholder(ag.int32, shape=value.shape)
        out = ag.to_graph(fn)(holder)
    with ag.Session(graph) as sess:
        code = sess.code(out, [holder])
        assert "while " in code and "While(" not in code and "If(" not in code
        inlined = sess.run(out, {holder: value})
        by_kernel = _kernel_results(graph, sess, {holder: value})
    outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    (op,) = _control_flow_ops(graph)
    kernel_values = [by_kernel[op.outputs.index(t)] for t in outputs if t.op is op]
    inlined_values = [v for v, t in zip(
        inlined if isinstance(out, (list, tuple)) else [inlined], outputs) if t.op is op]
    for a, b in zip(inlined_values, kernel_values):
        _assert_same(a, b)
    np.testing.assert_array_equal(inlined, python)
    function_result = ag.function(fn)(ag.constant(value))
    np.testing.assert_array_equal(nest.map_structure(np.asarray, function_result), python)


def test_an_error_inside_an_inlined_loop_names_the_inner_op_and_the_users_line():
    def divide_down(n, d):
        while n > 0:
            n = n // d - 1
        return n

    graph = ag.Graph()
    with graph.as_default():
        n, d = (ag.placeholder(ag.int32, shape=()) for _ in range(2))
        out = ag.to_graph(divide_down)(n, d)
    with ag.Session(graph) as sess, pytest.raises(ZeroDivisionError) as error:
        sess.run(out, {n: np.asarray(5, np.int32), d: np.asarray(0, np.int32)})
    assert "FloorDiv" in str(error.value)
    assert "test_plan_specialization.py" in str(error.value)


def test_the_while_gradient_still_records_the_body_inputs():
    x = ag.constant(1.5)

    @ag.function
    def cube_by_loop(x):
        y, i = x, 0
        while i < 2:
            y = y * x
            i += 1
        return y

    with ag.GradientTape() as tape:
        tape.watch(x)
        y = cube_by_loop(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 3 * 1.5 ** 2, rtol=1e-6)


# --- buffer reuse -------------------------------------------------------------------------


def test_elementwise_ops_write_into_dying_buffers_never_into_feeds_or_fetches():
    x = np.linspace(-2.0, 2.0, 12, dtype=np.float32).reshape(3, 4)
    row = np.arange(4, dtype=np.float32)
    kept_x, kept_row = x.copy(), row.copy()
    graph = ag.Graph()
    with graph.as_default():
        px = ag.placeholder(ag.float32, shape=x.shape)
        prow = ag.placeholder(ag.float32, shape=row.shape)
        a = ag.exp(px)              # a new array: reusable
        b = ag.multiply(a, 2.0)     # a dies here: b is written into a
        c = ag.add(prow, 1.0)       # shape (4,): never the buffer of a (3, 4) result
        d = ag.subtract(b, c)       # b dies: written into b
        e = ag.multiply(d, d)       # d read twice, dies here
        fetched = ag.add(e, 1.0)
        later = ag.multiply(fetched, 3.0)  # `fetched` is fetched: never overwritten
    with ag.Session(graph) as sess:
        code = sess.code([fetched, later], [px, prow])
        assert "out=" in code
        got_fetched, got_later = sess.run([fetched, later], {px: x, prow: row})
    with np.errstate(all="ignore"):
        d_np = np.exp(x) * np.float32(2.0) - (row + np.float32(1.0))
        want = d_np * d_np + np.float32(1.0)
    np.testing.assert_array_equal(got_fetched, want)
    np.testing.assert_array_equal(got_later, want * np.float32(3.0))
    np.testing.assert_array_equal(x, kept_x)   # feeds are never written
    np.testing.assert_array_equal(row, kept_row)


# --- fusion ---------------------------------------------------------------------------------


def test_a_chain_of_elementwise_ops_runs_blocked_and_equals_numpy():
    """Large enough to be blocked: a loop over blocks runs every op per block. A value
    read outside the chain (`mid`, fetched; `side`, read twice) ends a chain there."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((300, 1000)).astype(np.float32)
    kept = x.copy()
    graph = ag.Graph()
    with graph.as_default():
        px = ag.placeholder(ag.float32, shape=x.shape)
        c = ag.placeholder(ag.float32, shape=())
        y = px
        for i in range(12):
            y = [ag.add, ag.multiply, ag.subtract, ag.maximum][i % 4](y, c)
        mid = y
        side = ag.exp(ag.negative(mid))
        out = ag.tanh(side * side + 1.0) - 0.5
    feeds = {px: x, c: np.float32(0.75)}
    with ag.Session(graph) as sess:
        code = sess.code([mid, out], list(feeds))
        # three loops: the 12 ops up to `mid`; negative, exp; add, tanh, subtract, the
        # last in place of the dying product (`sub = mul`, then its blocks)
        assert code.count("for ") == 3
        assert re.search(r"^ +(\w+) = \w+\n +\1_flat = ", code, re.M)
        got_mid, got_out = sess.run([mid, out], feeds)
    f32 = np.float32
    want = x
    for i in range(12):
        want = [np.add, np.multiply, np.subtract, np.maximum][i % 4](want, f32(0.75))
    np.testing.assert_array_equal(got_mid, want)
    side = np.exp(-want)
    np.testing.assert_array_equal(got_out, np.tanh(side * side + f32(1.0)) - f32(0.5))
    np.testing.assert_array_equal(x, kept)


# The chain is unrolled on purpose: a long straight run of ops in one plan.
@pytest.mark.filterwarnings("ignore::autograph_py.runtime.operators.unrolling.UnrolledLoopWarning")
@pytest.mark.parametrize("length", [31, 32, 33, 250, 1000])
def test_long_chains_of_folded_scalar_expressions_compile(length):
    # Folding every pure expression into its reader once nested 250 adds in one
    # statement, past the 200 parentheses Python's parser takes (SyntaxError).
    def chain(x, y):
        for _ in range(length):
            x = x + y
        return x

    x, y = np.int32(3), np.int32(1)
    session_result, function_result, code = _session_and_function(chain, x, y)
    expected = chain(np.int32(3), np.int32(1))
    assert session_result == function_result == expected
    assert max(line.count("(") for line in code.splitlines()) < 200


def _shape_arithmetic(x):
    n = ag.shape(x)[0]
    return n * 2 + ag.size(x), ag.zeros(ag.stack([n, 2]), ag.int32), ag.rank(x)


def test_values_static_shapes_fix_are_constants_of_the_plan():
    """`shape(x)[0]`, `size(x)`, `rank(x)` and small integers computed from them are
    printed as constants when the static shape is known (the plan runs only on values
    of that shape), and computed when it is not; the answers are the kernels'."""
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    expected = _shape_arithmetic(ag.constant(x))
    graph = ag.Graph()
    with graph.as_default():
        holder = ag.placeholder(ag.float32, shape=x.shape)
        out = _shape_arithmetic(holder)
    with ag.Session(graph) as sess:
        session, code = sess.run(out, {holder: x}), sess.code(out, [holder])
    function = ag.function(_shape_arithmetic)(ag.constant(x))
    for got in (session, [t.numpy() for t in function]):
        for g, e in zip(got, expected):
            _assert_same(g, e.numpy())
    assert "Shape(" not in code and "Size(" not in code and "Rank(" not in code
    graph = ag.Graph()
    with graph.as_default():
        holder = ag.placeholder(ag.float32, shape=(None, 3))
        out = _shape_arithmetic(holder)
    with ag.Session(graph) as sess:
        assert "Shape(" in sess.code(out, [holder])
        for rows in (1, 5):
            value = np.zeros((rows, 3), np.float32)
            for g, e in zip(sess.run(out, {holder: value}),
                            _shape_arithmetic(ag.constant(value))):
                _assert_same(g, e.numpy())


def test_a_fed_shape_value_is_not_taken_from_the_static_shape():
    """A Session may feed `shape(x)[0]` itself: what reads it takes the fed value, not
    the one the static shape fixes."""
    graph = ag.Graph()
    with graph.as_default():
        x = ag.placeholder(ag.float32, shape=(3,))
        n = ag.shape(x)[0]
        doubled = n * 2
        zeros = ag.zeros(ag.stack([n * 400]), ag.int32)  # (over the small values folded)
    with ag.Session(graph) as sess:
        value = np.zeros(3, np.float32)
        assert sess.run(doubled, {x: value}) == 6
        assert sess.run(doubled, {x: value, n: 5}) == 10
        assert sess.run(zeros, {x: value}).shape == (1200,)
        assert sess.run(zeros, {x: value, n: 5}).shape == (2000,)
