"""Session.run: fetch structures, feeds (any tensor), plan caching, and input errors."""

import numpy as np
import pytest
from autograph_py.runtime import dtypes, session
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.plan.executor import MissingFeedError
from autograph_py.runtime.session import Session
from autograph_py.runtime.variables import Variable


@pytest.fixture
def graph():
    """x (fed) -> y = x*x -> z = y + 1, plus a constant c."""
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [2], name="x")
        y = m.square(x, name="y")
        z = m.add(y, 1.0, name="z")
        c = constant(7, name="c")
    g.t = dict(x=x, y=y, z=z, c=c)
    return g


X = np.array([1.0, 3.0], np.float32)


def test_fetch_a_tensor(graph):
    with Session(graph) as sess:
        np.testing.assert_array_equal(sess.run(graph.t["z"], {graph.t["x"]: X}), X * X + 1)


def test_scalar_fetches_are_numpy_scalars(graph):
    with Session(graph) as sess:
        value = sess.run(graph.t["c"])
    assert value == 7 and np.ndim(value) == 0 and value.dtype == np.int32


def test_fetch_nested_structures_keeps_their_shape(graph):
    t = graph.t
    with Session(graph) as sess:
        out = sess.run({"a": [t["y"], (t["z"], t["c"])], "b": t["c"], "none": None},
                       {t["x"]: X})
    assert set(out) == {"a", "b", "none"}
    assert isinstance(out["a"], list) and isinstance(out["a"][1], tuple)
    np.testing.assert_array_equal(out["a"][0], X * X)
    np.testing.assert_array_equal(out["a"][1][0], X * X + 1)
    assert out["a"][1][1] == 7 and out["b"] == 7 and out["none"] is None


def test_fetch_an_operation_runs_it_and_gives_none():
    g = Graph()
    with g.as_default():
        v = Variable(1.0)
        inc = v.assign_add(2.0)
    with Session(g) as sess:
        assert sess.run(inc.op) is None
        assert sess.run(v) == 3.0


def test_fetch_by_name(graph):
    with Session(graph) as sess:
        assert sess.run("c:0") == 7
        assert sess.run("c") is None


def test_fetch_an_eager_tensor_gives_its_value(graph):
    with Session(graph) as sess:
        np.testing.assert_array_equal(sess.run(constant([1, 2])), [1, 2])


def test_feeding_an_intermediate_prunes_its_producers(graph):
    t = graph.t
    with Session(graph) as sess:  # x is never fed: its consumer y is fed instead
        np.testing.assert_array_equal(sess.run(t["z"], {t["y"]: [10.0, 20.0]}), [11.0, 21.0])


def test_fetching_a_fed_tensor_gives_the_fed_value(graph):
    t = graph.t
    with Session(graph) as sess:
        y, z = sess.run([t["y"], t["z"]], {t["y"]: [2.0, 5.0]})
    np.testing.assert_array_equal(y, [2.0, 5.0])
    np.testing.assert_array_equal(z, [3.0, 6.0])


def test_feed_by_tensor_name(graph):
    with Session(graph) as sess:
        np.testing.assert_array_equal(sess.run("z:0", {"x:0": X}), X * X + 1)


def test_plans_are_cached_per_fetches_and_feed_keys(graph, monkeypatch):
    t = graph.t
    plans = []
    original_run = session.Plan.run

    def spy(plan, ctx, values):
        plans.append(plan)
        return original_run(plan, ctx, values)

    monkeypatch.setattr(session.Plan, "run", spy)
    with Session(graph) as sess:
        sess.run(t["z"], {t["x"]: X})
        sess.run(t["z"], {t["x"]: X + 1})
        sess.run([t["z"]], {t["x"]: X})   # same leaves, other structure: same plan
        sess.run(t["z"], {t["y"]: X})     # other fed tensor: a new plan
        sess.run(t["y"], {t["x"]: X})     # other fetch: a new plan
    assert plans[0] is plans[1] is plans[2]
    assert len({id(p) for p in plans}) == 3


def test_closed_session_refuses_to_run(graph):
    sess = Session(graph)
    sess.close()
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(graph.t["c"])


def test_session_binds_the_graph_being_built(graph):
    with graph.as_default():
        sess = Session()
    assert sess.graph is graph


# --- bad input ---------------------------------------------------------------------------


def test_missing_placeholder_names_it(graph):
    with Session(graph) as sess, pytest.raises(MissingFeedError, match=r"placeholder x:0"):
        sess.run(graph.t["z"])


def test_lossy_dtype_feed_names_the_tensor():
    g = Graph()
    with g.as_default():
        n = placeholder(dtypes.int32, [], name="n")
        out = m.add(n, 1)
    with Session(g) as sess, pytest.raises(TypeError, match=r"cannot feed n:0 \(dtype int32\)"):
        sess.run(out, {n: 2.5})


def test_lossless_feed_is_converted_to_the_placeholder_dtype():
    g = Graph()
    with g.as_default():
        n = placeholder(dtypes.int32, [], name="n")
        out = m.add(n, 1)
    with Session(g) as sess:
        value = sess.run(out, {n: 2.0})
    assert value == 3 and value.dtype == np.int32


def test_wrong_shape_feed_names_the_tensor(graph):
    with Session(graph) as sess, pytest.raises(ValueError, match=r"shape \(3,\).*x:0"):
        sess.run(graph.t["z"], {graph.t["x"]: [1.0, 2.0, 3.0]})


def test_unknown_dims_accept_any_size():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [None, 2], name="x")
        y = m.square(x)
    with Session(g) as sess:
        assert sess.run(y, {x: np.ones((5, 2), np.float32)}).shape == (5, 2)


def test_feeding_a_tensor_of_another_graph_names_it(graph):
    other = Graph()
    with other.as_default():
        w = placeholder(dtypes.float32, [2], name="w")
    with Session(graph) as sess, pytest.raises(ValueError, match="w:0 belongs to another graph"):
        sess.run(graph.t["z"], {w: X})


def test_fetching_a_tensor_of_another_graph_names_it(graph):
    other = Graph()
    with other.as_default():
        w = constant(1.0, name="w")
    with Session(graph) as sess, pytest.raises(ValueError, match="w:0 belongs to another graph"):
        sess.run([graph.t["c"], w])


@pytest.mark.parametrize("garbage", [object(), 3.5, np.ones(2)])
def test_fetching_garbage_names_its_type(graph, garbage):
    with Session(graph) as sess, pytest.raises(TypeError, match=type(garbage).__name__):
        sess.run([graph.t["c"], garbage])


def test_feed_keys_must_be_tensors(graph):
    with Session(graph) as sess, pytest.raises(TypeError, match="feed_dict keys"):
        sess.run(graph.t["z"], {42: X})
