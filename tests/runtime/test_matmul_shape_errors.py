"""`ag.matmul` of shapes that do not multiply gives one message in every mode (issue 25,
bug 12: eagerly it was numpy's "mismatch in its core dimension 0, with gufunc signature
(n?,k),(k,m?)->(n?,m?)", inside a function the shape rule's clear one).

The shape rule's message is raised by the rule while building (dims known), by the kernel
(eagerly, or in a graph whose dims were unknown while building) and by the XLA rule (an
input_signature's None dims, known when compiling). Oracle: numpy says which pairs of
shapes multiply (`np.matmul` succeeds or raises); good pairs match its result.
"""

import numpy as np
import pytest

import autograph_py as ag

BAD = [((2, 3), (2, 3)), ((4, 2, 3), (3, 2, 5)), ((5, 1, 4), (2, 3))]
GOOD = [((2, 3), (3, 4)), ((2, 1, 2, 3), (4, 3, 2)), ((5, 2, 3), (3, 1))]


def _arrays(shapes):
    rng = np.random.default_rng(12)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def _unknown(shape):
    return [None] * len(shape)


def _run(mode, a, b):
    """matmul of numpy arrays a and b in `mode`; the error's message if it raises."""
    try:
        if mode == "eager":
            return ag.matmul(a, b).numpy()
        if mode in ("graph", "graph with unknown dims"):
            with ag.Graph().as_default():
                dims = _unknown if mode != "graph" else list
                x = ag.placeholder(ag.float32, dims(a.shape))
                y = ag.placeholder(ag.float32, dims(b.shape))
                product = ag.matmul(x, y)
                with ag.Session() as sess:
                    return sess.run(product, {x: a, y: b})
        signature = None
        if mode.endswith("signature"):  # dims known only when the call comes
            signature = [ag.TensorSpec(_unknown(a.shape), ag.float32),
                         ag.TensorSpec(_unknown(b.shape), ag.float32)]
        f = ag.function(lambda x, y: ag.matmul(x, y), input_signature=signature,
                        jit_compile=mode.startswith("jit"))
        return f(ag.constant(a), ag.constant(b)).numpy()
    except ValueError as e:
        return e


MODES = ("eager", "graph", "graph with unknown dims", "function", "function with signature",
         "jit_compile", "jit_compile with signature")


@pytest.mark.parametrize("shapes", BAD)
def test_shapes_that_do_not_multiply_give_one_message_in_every_mode(shapes):
    a, b = _arrays(shapes)
    with pytest.raises(ValueError):
        np.matmul(a, b)  # the oracle: they do not multiply
    eager = _run("eager", a, b)
    assert isinstance(eager, ValueError)
    # "MatMul: <the message> (inputs: ...)": the message every mode must show
    message = str(eager).split(": ", 1)[1].rsplit(" (inputs:", 1)[0]
    assert message.startswith("matmul: ") and str(shapes[0]) in message and \
        str(shapes[1]) in message
    assert "gufunc" not in message and "core dimension" not in message
    for mode in MODES[1:]:
        error = _run(mode, a, b)
        assert isinstance(error, ValueError), mode
        assert message in str(error), (mode, str(error))


@pytest.mark.parametrize("shapes", GOOD)
def test_shapes_that_multiply_match_numpy_in_every_mode(shapes):
    a, b = _arrays(shapes)
    for mode in MODES:
        np.testing.assert_allclose(_run(mode, a, b), np.matmul(a, b), rtol=1e-5,
                                   err_msg=mode)


def test_the_inner_dimensions_message_says_which_must_agree():
    error = _run("eager", *_arrays(BAD[0]))
    assert "inner dimensions differ: (2, 3) @ (2, 3)" in str(error)
    assert "the last dimension of the first, 3, must equal the second-to-last of the " \
           "second, 2" in str(error)
