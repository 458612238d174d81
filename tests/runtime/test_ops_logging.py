"""ag.print (formatting like tf.print, eager and at graph run time) and assertions."""

import io
import sys

import autograph_py.runtime  # noqa: F401
import numpy as np
import pytest
from autograph_py.runtime import public_api as ag
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.session import Session


@pytest.mark.parametrize("value,text", [
    (1, "1"), ([1, 2, 3], "[1 2 3]"), (2.5, "2.5"), ([[1, 2], [3, 4]], "[[1 2]\n [3 4]]"),
    ([1.5, 2.0], "[1.5 2]"), (1 / 3, "0.333333"), ("hi", "hi"), (["a", "b"], "[a b]"),
    (list(range(10)), "[0 1 2 ... 7 8 9]"), ([-1, 10], "[-1 10]"),
])
def test_eager_print_formats_like_tf_print(capsys, value, text):
    assert ag.print(ag.constant(value)) is None
    assert capsys.readouterr().out == text + "\n"


def test_print_mixes_python_values_and_tensors(capsys):
    ag.print("x =", ag.constant([1, 2]), 3, sep="|", end="!\n")
    assert capsys.readouterr().out == "x =|[1 2]|3!\n"


def test_print_summarize_and_streams(capsys, tmp_path):
    ag.print(ag.range(10), summarize=-1, output_stream=sys.stderr)
    assert capsys.readouterr().err == "[0 1 2 3 4 5 6 7 8 9]\n"
    buffer = io.StringIO()
    ag.print(ag.range(10), summarize=1, output_stream=buffer)
    assert buffer.getvalue() == "[0 ... 9]\n"
    path = tmp_path / "log.txt"
    ag.print(ag.constant(1), output_stream=f"file://{path}")
    ag.print(ag.constant(2), output_stream=f"file://{path}")
    assert path.read_text() == "1\n2\n"


def test_graph_print_runs_at_every_run(capsys):
    with Graph().as_default() as graph:
        x = ag.placeholder(ag.int32, [None])
        op = ag.print("items:", x * 2)
        assert capsys.readouterr().out == ""  # building prints nothing
        assert op.type == "PrintV2" and op.stateful and op in graph.stateful_ops
        session = Session()
        for n in (1, 2):
            assert session.run(op, {x: np.arange(n)}) is None
    assert capsys.readouterr().out == "items: [0]\nitems: [0 2]\n"


def test_assert_passes_and_fails_eagerly():
    assert ag.debugging.Assert(ag.constant(True), ["never shown"]) is None
    with pytest.raises(InvalidArgumentError, match=r"Assertion failed: x is \[1 2\]"):
        ag.Assert(ag.constant([True, False]), ["x is", ag.constant([1, 2])])
    with pytest.raises(TypeError, match="Assert: condition must be bool tensors"):
        ag.Assert(ag.constant(1), [])


def test_assert_in_a_graph_raises_when_run():
    with Graph().as_default():
        x = ag.placeholder(ag.float32, [])
        check = ag.debugging.assert_positive(x, message="x must be positive")
        session = Session()
        session.run(check, {x: 1.0})
        with pytest.raises(InvalidArgumentError, match=r"(?s)x must be positive.*x = -1.*Assert"):
            session.run(check, {x: -1.0})


@pytest.mark.parametrize("fn,good,bad", [
    (ag.debugging.assert_equal, ([1, 2], [1, 2]), ([1, 2], [1, 3])),
    (ag.debugging.assert_less, ([1, 2], [2, 3]), ([1, 2], [2, 2])),
    (ag.debugging.assert_greater, ([1, 2], 0), ([1, 2], 1)),
])
def test_comparison_asserts(fn, good, bad):
    fn(ag.constant(good[0]), good[1])
    with pytest.raises(InvalidArgumentError, match=r"did not hold element-wise: x = \[1 2\]"):
        fn(ag.constant(bad[0]), bad[1], message="custom")


def test_sign_asserts():
    ag.debugging.assert_non_negative(ag.constant([0, 1]))
    with pytest.raises(InvalidArgumentError, match=r"x >= 0 did not hold: x = \[-1 1\]"):
        ag.debugging.assert_non_negative(ag.constant([-1, 1]))
    with pytest.raises(InvalidArgumentError, match="x > 0"):
        ag.debugging.assert_positive(ag.constant([0.0]))
