"""`ag.shape(x)[i]` gives static shapes where the dim is known, as TensorFlow does (issue 25:
"`ag.shape(x)[i]` used for static shapes where it is known").

TensorFlow's rule (tensorflow/core/common_runtime/eval_const_tensor.cc): while building
a graph, shape inference takes `tf.shape(x)`, `tf.size(x)`, `tf.rank(x)`, `tf.shape(x)[i]`
and `tf.unstack(tf.shape(x))[i]` as constants when the static shape tells them (one known
dim is enough, others may be unknown), and folds small computations on such constants
(`tf.shape(x)[0] // 2`, `[tf.shape(x)[0], 1]`); slices and concatenations of shapes keep
their known dims (ConstantPartialShape). So `tf.zeros([tf.shape(x)[1], 3])` has the static
shape (2, 3) for x of shape (None, 2), and code needing a static dim (unstack without
`num`) works. The value itself stays a tensor (`range(tf.shape(x)[0])` is a staged loop).

Oracles: numpy on the fed values (the run's shapes and results); the static shape must
be the run's shape with exactly the dims that depend on x's unknown dim left unknown.
"""

import numpy as np
import pytest

import autograph_py as ag

X = np.arange(40, dtype=np.float32).reshape(4, 2, 5)
X_SHAPE = [None, 2, 5]  # dim 0 unknown while building

# (function of x, the positions of the result's dims that depend on x's dim 0)
CASES = {
    "zeros of a known dim": (lambda x: ag.zeros([ag.shape(x)[1], 3]), ()),
    "zeros of the unknown dim": (lambda x: ag.zeros([ag.shape(x)[0], 3]), (0,)),
    "negative index": (lambda x: ag.ones([ag.shape(x)[-1], ag.shape(x)[-2]]), ()),
    # -1 is the element count (unknown) over the unknown dim: TensorFlow knows the two
    # unknowns are one dim and gives (None, 10); here both stay unknown (limitations.md)
    "reshape": (lambda x: ag.reshape(x, [ag.shape(x)[0], -1]), (0, 1)),
    "reshape to the last dim": (lambda x: ag.reshape(x, [-1, ag.shape(x)[2]]), (0,)),
    "arithmetic on dims": (lambda x: ag.zeros([ag.shape(x)[1] * 3, ag.shape(x)[2] // 2 + 1]),
                           ()),
    "range": (lambda x: ag.range(ag.shape(x)[2] - 1), ()),
    "tile": (lambda x: ag.tile(ag.ones([1, 3]), [ag.shape(x)[1], 1]), ()),
    "one_hot depth": (lambda x: ag.one_hot([0, 1, 1], ag.shape(x)[2]), ()),
    "unstacked shape": (lambda x: ag.zeros(ag.unstack(ag.shape(x))[1:]), ()),
    "a slice of the shape": (lambda x: ag.zeros(ag.shape(x)[1:]), ()),
    "concatenated shapes": (lambda x: ag.zeros(ag.concat([ag.shape(x)[1:], [2]], 0)), ()),
    "size and rank": (lambda x: ag.zeros([ag.size(x[0]), ag.rank(x)]), ()),
}


def _static_and_run(fn):
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, X_SHAPE)
        result = fn(x)
        with ag.Session() as sess:
            return result.shape, sess.run(result, {x: X})


def _numpy(fn):
    return fn(ag.constant(X)).numpy()  # eagerly every dim is known: numpy's shapes


@pytest.mark.parametrize("name", CASES)
def test_dims_read_from_a_shape_are_static_where_the_shape_knows_them(name):
    fn, unknown = CASES[name]
    static, value = _static_and_run(fn)
    np.testing.assert_array_equal(value, _numpy(fn))
    expected = tuple(None if i in unknown else d for i, d in enumerate(value.shape))
    assert static == expected, (static, expected)


def needs_a_static_dim(x):
    rows = ag.unstack(ag.zeros([ag.shape(x)[1], 3]) + ag.reduce_sum(x))  # unstack: no num
    total = rows[0]
    for i in range(ag.shape(x)[0]):  # a staged loop over a tensor bound, as in TF
        total += ag.reduce_sum(x[i])
    return total, len(rows)


def needs_a_static_dim_oracle(x):
    rows = [np.zeros(3, np.float32) + x.sum() for _ in range(x.shape[1])]
    total = rows[0]
    for i in range(x.shape[0]):
        total = total + x[i].sum()
    return total, len(rows)


@pytest.mark.parametrize("mode", ["eager", "graph", "function", "function with signature",
                                  "jit_compile", "jit_compile with signature"])
def test_code_that_needs_a_static_dim_from_shape_runs_in_every_mode(mode):
    expected_total, expected_count = needs_a_static_dim_oracle(X)
    if mode == "eager":
        total, count = ag.to_graph(needs_a_static_dim)(ag.constant(X))
    elif mode == "graph":
        with ag.Graph().as_default():
            x = ag.placeholder(ag.float32, X_SHAPE)
            total, count = ag.to_graph(needs_a_static_dim)(x)
            with ag.Session() as sess:
                total = sess.run(total, {x: X})
    else:
        signature = [ag.TensorSpec(X_SHAPE, ag.float32)] if "signature" in mode else None
        f = ag.function(needs_a_static_dim, input_signature=signature,
                        jit_compile=mode.startswith("jit"))
        total, count = f(ag.constant(X))
    np.testing.assert_allclose(np.asarray(total), expected_total, rtol=1e-6)
    assert int(count) == expected_count


def test_the_dim_itself_stays_a_tensor_and_a_loop_over_it_is_staged():
    seen = {}

    @ag.function(input_signature=[ag.TensorSpec(X_SHAPE, ag.float32)])
    def count_rows(x):
        n = ag.shape(x)[1]
        seen[len(seen)] = n  # a trace-time record (no warning: not a list append)
        count = 0
        for _ in range(ag.shape(x)[0]):
            count += 1
        return count + n - n

    for rows in (4, 1, 0):  # one trace serves every length: the loop is staged
        assert int(count_rows(ag.constant(X[:rows]))) == rows
    assert len(seen) == 1 and isinstance(seen[0], ag.Tensor)  # a tensor, not a Python int


def test_a_dim_computation_that_fails_stays_unknown_and_fails_when_it_runs():
    with ag.Graph().as_default():
        x = ag.placeholder(ag.int32, X_SHAPE)
        bad = ag.zeros([ag.shape(x)[1] // (ag.shape(x)[1] - 2)])
        assert bad.shape == (None,)
        with ag.Session() as sess, pytest.raises(ZeroDivisionError):
            sess.run(bad, {x: X.astype(np.int32)})
