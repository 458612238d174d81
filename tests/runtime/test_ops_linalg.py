"""ag.linalg (inv, det, solve, cholesky, band_part, diag_part, set_diag, trace,
matrix_transpose, matmul, eye) against numpy, eagerly, in graphs (known and unknown
dims), through ag.function and with jit_compile=True; gradients against finite
differences (also through a compiled call); bad input and singular matrices raise what
TensorFlow raises, in every mode."""

import json

import numpy as np
import pytest
from autograph_py.runtime.gradients.checker import numerical_gradients, tape_gradients
from ops_modes import check_gradients, check_modes

import autograph_py as ag

rng = np.random.default_rng(25)


def normal(*shape):
    return rng.standard_normal(shape)


def positive_definite(*shape):
    """Well-conditioned symmetric positive definite matrices of `shape` [..., n, n]."""
    x = normal(*shape)
    return x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])


def swap(a):
    return np.swapaxes(a, -1, -2)


# name -> (function of tensors, input shapes, numpy oracle). Shapes: one matrix and
# batches over one and two leading dims.
SQUARE = {
    "inv": (ag.linalg.inv, np.linalg.inv),
    "inv adjoint": (lambda t: ag.linalg.inv(t, adjoint=True), lambda a: np.linalg.inv(swap(a))),
    "det": (ag.linalg.det, np.linalg.det),
    "cholesky": (ag.linalg.cholesky, np.linalg.cholesky),
}
SHAPES = [(3, 3), (2, 4, 4), (2, 1, 3, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", SQUARE)
def test_square_ops_match_numpy(name, shape):
    fn, oracle = SQUARE[name]
    check_modes(fn, [positive_definite(*shape)], oracle, rtol=1e-9)


@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-4), (np.float16, 2e-2)])
@pytest.mark.parametrize("name", SQUARE)
def test_square_ops_keep_narrow_float_dtypes(name, dtype, rtol):
    fn, oracle = SQUARE[name]
    a = positive_definite(2, 3, 3).astype(dtype)
    check_modes(fn, [a], lambda x: oracle(x.astype(np.float64)).astype(dtype), rtol=rtol)


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("shapes", [[(3, 3), (3, 2)], [(2, 4, 4), (2, 4, 1)],
                                    [(2, 3, 3, 3), (2, 3, 3, 5)]])
def test_solve_matches_numpy(shapes, adjoint):
    matrix, rhs = positive_definite(*shapes[0]) + normal(*shapes[0]), normal(*shapes[1])
    check_modes(lambda a, b: ag.linalg.solve(a, b, adjoint=adjoint), [matrix, rhs],
                lambda a, b: np.linalg.solve(swap(a) if adjoint else a, b), rtol=1e-9)


def test_solve_float32():
    matrix, rhs = positive_definite(2, 3, 3).astype(np.float32), normal(2, 3, 2).astype(
        np.float32)
    check_modes(ag.linalg.solve, [matrix, rhs],
                lambda a, b: np.linalg.solve(a.astype(np.float64), b).astype(np.float32),
                rtol=1e-4)


def test_cholesky_reads_only_the_lower_triangle():
    a = positive_definite(2, 3, 3)
    garbage_above = a + np.triu(normal(3, 3) * 100, 1)
    check_modes(ag.linalg.cholesky, [garbage_above], lambda x: np.linalg.cholesky(a))


def _band(a, lower, upper):
    rows, columns = np.indices(a.shape[-2:])
    keep = ((lower < 0) | (rows - columns <= lower)) & ((upper < 0) | (columns - rows <= upper))
    return np.where(keep, a, 0)


@pytest.mark.parametrize("lower, upper", [(0, 0), (-1, 0), (0, -1), (1, 2), (-1, -1), (3, 4)])
def test_band_part(lower, upper):
    a = normal(2, 3, 4)
    check_modes(lambda t: ag.linalg.band_part(t, lower, upper), [a],
                lambda x: _band(x, lower, upper))


def test_band_part_of_integers_with_bounds_known_only_at_run_time():
    a = rng.integers(-9, 9, (2, 4, 3)).astype(np.int32)
    bounds = [np.array(1), np.array(-1)]  # placeholders in graphs, tensor inputs in XLA
    check_modes(ag.linalg.band_part, [a, *bounds], lambda x, lo, hi: _band(x, 1, -1))


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 5), (4, 2), (2, 2, 1, 3)])
def test_diag_part_set_diag_and_trace(shape):
    a = normal(*shape)
    diagonal = normal(*shape[:-2], min(shape[-2:]))

    def with_diagonal(x, d):
        out = x.copy()
        index = np.arange(d.shape[-1])
        out[..., index, index] = d
        return out

    check_modes(ag.linalg.diag_part, [a], lambda x: np.diagonal(x, axis1=-2, axis2=-1).copy())
    check_modes(ag.linalg.set_diag, [a, diagonal], with_diagonal)
    check_modes(ag.linalg.trace, [a], lambda x: np.trace(x, axis1=-2, axis2=-1))


def test_matrix_transpose_and_matmul_keywords():
    a, b = normal(2, 3, 4), normal(2, 5, 4)
    check_modes(ag.linalg.matrix_transpose, [a], swap)
    check_modes(ag.linalg.adjoint, [a], swap)
    check_modes(lambda x, y: ag.linalg.matmul(x, y, transpose_b=True), [a, b],
                lambda x, y: x @ swap(y))
    check_modes(lambda x, y: ag.matmul(x, y, adjoint_a=True, transpose_b=True),
                [swap(a), b], lambda x, y: swap(x) @ swap(y))
    check_modes(lambda x, y: ag.matmul(x, y, transpose_a=True), [swap(a), swap(b)],
                lambda x, y: swap(x) @ y)


def test_matrix_transpose_of_unknown_rank():
    a = normal(2, 3, 4)
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float64, None)
        y = ag.linalg.matrix_transpose(x)
        np.testing.assert_array_equal(ag.Session().run(y, {x: a}), swap(a))


def test_eye():
    np.testing.assert_array_equal(ag.eye(3).numpy(), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(ag.linalg.eye(2, 3, dtype=ag.float64).numpy(), np.eye(2, 3))
    batched = ag.linalg.eye(3, 2, batch_shape=[2, 1], dtype=ag.int32)
    np.testing.assert_array_equal(batched.numpy(), np.broadcast_to(np.eye(3, 2, dtype=np.int32),
                                                                   (2, 1, 3, 2)))
    assert ag.function(lambda: ag.eye(ag.constant(2)))().numpy().tolist() == [[1, 0], [0, 1]]


def test_the_aliases_are_the_existing_functions():
    assert ag.linalg.norm is ag.norm
    assert ag.linalg.matmul is ag.matmul


def test_a_graph_of_the_linalg_ops_lints_prints_and_round_trips_through_json():
    with ag.Graph().as_default() as graph:
        x = ag.placeholder(ag.float64, [2, 3, 3], name="x")
        lower = ag.placeholder(ag.int32, [], name="lower")
        outputs = [ag.linalg.inv(x, adjoint=True), ag.linalg.det(x), ag.linalg.cholesky(x),
                   ag.linalg.solve(x, x[..., :1], adjoint=True), ag.linalg.band_part(x, 0, -1),
                   ag.linalg.band_part(x, lower, 0), ag.linalg.set_diag(x, ag.linalg.diag_part(x)),
                   ag.linalg.trace(x)]
        graph.lint()
    assert "MatrixBandPart(%x:0, band=(0, -1))" in graph.as_text()
    rebuilt = ag.Graph.from_dict(json.loads(json.dumps(graph.as_dict())))
    assert rebuilt.as_text() == graph.as_text()
    value = positive_definite(2, 3, 3)
    with ag.Session(graph) as sess:
        expected = sess.run(outputs, {x: value, lower: 1})
    with ag.Session(rebuilt) as sess:
        got = sess.run([t.name for t in outputs], {"x:0": value, "lower:0": 1})
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)


# --- gradients ---------------------------------------------------------------------------


def _symmetric_cholesky(t):
    # Differentiate through a symmetric input: the rule's convention (TensorFlow's)
    # treats a perturbation of A as symmetric; the op reads only A's lower triangle.
    return ag.linalg.cholesky(t + ag.linalg.matrix_transpose(t))


GRADIENT_CASES = {
    "inv": (ag.linalg.inv, lambda: [positive_definite(2, 3, 3) + normal(2, 3, 3)]),
    "inv adjoint": (lambda t: ag.linalg.inv(t, adjoint=True),
                    lambda: [positive_definite(3, 3) + normal(3, 3)]),
    "det": (ag.linalg.det, lambda: [positive_definite(2, 3, 3) + normal(2, 3, 3)]),
    "solve": (ag.linalg.solve, lambda: [positive_definite(2, 3, 3) + normal(2, 3, 3),
                                        normal(2, 3, 2)]),
    "solve adjoint": (lambda a, b: ag.linalg.solve(a, b, adjoint=True),
                      lambda: [positive_definite(3, 3) + normal(3, 3), normal(3, 2)]),
    "cholesky": (_symmetric_cholesky, lambda: [positive_definite(2, 3, 3) / 2]),
    "band_part": (lambda t: ag.linalg.band_part(t, 1, 0), lambda: [normal(2, 3, 4)]),
    "diag_part": (ag.linalg.diag_part, lambda: [normal(2, 4, 3)]),
    "set_diag": (ag.linalg.set_diag, lambda: [normal(2, 3, 4), normal(2, 3)]),
    "trace": (ag.linalg.trace, lambda: [normal(2, 3, 3)]),
}


@pytest.mark.parametrize("name", GRADIENT_CASES)
def test_gradient_matches_finite_differences(name):
    fn, inputs = GRADIENT_CASES[name]
    check_gradients(fn, inputs(), tolerance=1e-6)


@pytest.mark.parametrize("name", GRADIENT_CASES)
def test_compiled_gradient_is_the_numpy_runtimes(name):
    fn, inputs = GRADIENT_CASES[name]
    arrays = inputs()
    grad_y = normal(*fn(*map(ag.constant, arrays)).shape)
    expected = numerical_gradients(fn, arrays, grad_y)
    compiled = tape_gradients(ag.function(fn, jit_compile=True), arrays, grad_y)
    for want, got in zip(expected, compiled):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("jit_compile", [False, True])
def test_cholesky_gradient_is_tensorflows_symmetric_rule(jit_compile):
    # TF's formula written out: sym(L^-T Φ(L^T G) L^-1), Φ = lower triangle, half diagonal.
    a, grad_y = positive_definite(3, 3), normal(3, 3)
    lower = np.linalg.cholesky(a)
    middle = lower.T @ grad_y
    phi = np.tril(middle) - np.diag(np.diag(middle)) / 2
    inverse = np.linalg.inv(lower)
    by_hand = inverse.T @ phi @ inverse
    expected = (by_hand + by_hand.T) / 2
    fn = ag.function(ag.linalg.cholesky, jit_compile=True) if jit_compile else \
        ag.linalg.cholesky
    got, = tape_gradients(fn, [a], grad_y)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)


def test_det_gradient_at_a_singular_matrix_raises_as_tensorflows():
    x = ag.constant([[1.0, 2.0], [2.0, 4.0]], ag.float64)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = ag.linalg.det(x)
    assert y.numpy() == 0.0
    with pytest.raises(ag.InvalidArgumentError, match="not invertible"):
        tape.gradient(y, x)


# --- singular input and bad shapes, in every mode ----------------------------------------


SINGULAR = np.array([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]])
INDEFINITE = np.array([[[2.0, 0.0], [0.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]]])


def _ways(fn):
    """fn run eagerly, by a Session (unknown dims: the kernel checks), through
    ag.function and compiled, each a callable of numpy arrays."""

    def session(*arrays):
        with ag.Graph().as_default():
            xs = [ag.placeholder(ag.as_dtype(a.dtype), [None] * a.ndim) for a in arrays]
            return ag.Session().run(fn(*xs), dict(zip(xs, arrays)))

    def traced(jit_compile):
        return lambda *arrays: ag.function(fn, jit_compile=jit_compile)(
            *map(ag.constant, arrays)).numpy()

    return {"eager": lambda *arrays: fn(*map(ag.constant, arrays)).numpy(),
            "session": session, "function": traced(False), "jit_compile": traced(True)}


@pytest.mark.parametrize("way", ["eager", "session", "function", "jit_compile"])
@pytest.mark.parametrize("fn, arrays, message", [
    (lambda x: ag.linalg.inv(x), [SINGULAR], "the input is not invertible: .* singular"),
    (lambda x: ag.linalg.solve(x, ag.ones([2, 2, 1], ag.float64)), [SINGULAR],
     "the input matrix is not invertible: .* singular"),
    (lambda x: ag.linalg.cholesky(x), [INDEFINITE],
     "Cholesky decomposition was not successful: .* not positive definite"),
], ids=["inv", "solve", "cholesky"])
def test_singular_input_raises_invalid_argument(way, fn, arrays, message):
    with pytest.raises(ag.InvalidArgumentError, match=message):
        _ways(fn)[way](*arrays)


def test_the_eager_message_names_the_matrix_of_the_batch():
    with pytest.raises(ag.InvalidArgumentError, match=r"matrix \[1\] of the batch is singular"):
        ag.linalg.inv(SINGULAR)
    with pytest.raises(ag.InvalidArgumentError, match=r"MatrixInverse: .*the matrix is singular"):
        ag.linalg.inv(SINGULAR[1])


@pytest.mark.parametrize("way", ["eager", "session", "function", "jit_compile"])
def test_det_of_a_singular_matrix_is_zero(way):
    np.testing.assert_array_equal(_ways(ag.linalg.det)[way](SINGULAR), [1.0, 0.0])


@pytest.mark.parametrize("way", ["eager", "session", "function", "jit_compile"])
@pytest.mark.parametrize("name", ["inv", "det", "cholesky"])
def test_non_square_matrices_are_refused(name, way):
    fn = getattr(ag.linalg, name)
    with pytest.raises(ValueError, match=rf"{name} needs square matrices .*\(2, 2, 3\)"):
        _ways(fn)[way](normal(2, 2, 3))


@pytest.mark.parametrize("name", ["inv", "det", "cholesky", "diag_part", "band_part",
                                  "matrix_transpose"])
def test_rank_below_two_is_refused(name):
    fn = getattr(ag.linalg, name)
    call = (lambda x: fn(x, 0, 0)) if name == "band_part" else fn
    with pytest.raises(ValueError, match=rf"{name} needs a matrix or a batch of matrices "
                                         r"\(rank >= 2.*got shape \(3,\)"):
        call(ag.ones([3]))
    with ag.Graph().as_default():  # the shape rule refuses it while building
        with pytest.raises(ValueError, match="rank >= 2"):
            call(ag.placeholder(ag.float32, [None]))


def test_integer_matrices_are_refused():
    for fn in (ag.linalg.inv, ag.linalg.det, ag.linalg.cholesky):
        with pytest.raises(TypeError, match="floating-point tensors, got int32"):
            fn(ag.constant([[1, 0], [0, 1]]))


@pytest.mark.parametrize("matrix, rhs, message", [
    ((2, 3, 3), (3, 3, 1), "the same batch dims"),
    ((3, 3), (2, 3, 1), "of one rank"),
    ((3, 3), (4, 1), "as many rows as the matrix"),
    ((3, 3), (3,), r"solve's rhs needs a matrix or a batch of matrices"),
    ((3, 2), (3, 1), "solve's matrix needs square matrices"),
])
def test_solve_refuses_mismatched_shapes(matrix, rhs, message):
    with pytest.raises(ValueError, match=message):
        ag.linalg.solve(ag.ones(matrix, ag.float64), ag.ones(rhs, ag.float64))
    with ag.Graph().as_default():
        with pytest.raises(ValueError, match=message):
            ag.linalg.solve(ag.placeholder(ag.float64, matrix), ag.placeholder(ag.float64, rhs))


def test_set_diag_refuses_a_diagonal_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"set_diag needs a diagonal of shape \(2, 3\)"):
        ag.linalg.set_diag(ag.zeros([2, 3, 4]), ag.zeros([2, 4]))


@pytest.mark.parametrize("way", ["eager", "session", "function", "jit_compile"])
def test_band_part_bounds_beyond_the_matrix_are_refused(way):
    with pytest.raises(ag.InvalidArgumentError, match=r"num_lower must be negative or at "
                                                      r"most the number of rows \(2\), got 3"):
        _ways(lambda x: ag.linalg.band_part(x, 3, 0))[way](normal(2, 3))
    # Bounds known only at run time (placeholders, a compiled function's inputs).
    with pytest.raises(ag.InvalidArgumentError, match=r"num_upper must be negative or at "
                                                      r"most the number of columns \(3\)"):
        _ways(lambda x, upper: ag.linalg.band_part(x, 0, upper))[way](normal(2, 3),
                                                                     np.array(4))


def test_matmul_refuses_transpose_and_adjoint_together():
    with pytest.raises(ValueError, match="only one of transpose_a and adjoint_a"):
        ag.matmul(ag.ones([2, 2]), ag.ones([2, 2]), transpose_a=True, adjoint_a=True)


def test_eye_needs_sizes_known_while_building():
    with ag.Graph().as_default():
        n = ag.placeholder(ag.int32, [])
        with pytest.raises(TypeError, match="eye: num_rows must be known while building"):
            ag.eye(n)
    with pytest.raises(TypeError, match="eye: num_columns must be a non-negative integer"):
        ag.eye(2, 2.5)
