"""Small matrix products run on one BLAS thread (runtime/blas_threads.py, the [perf] extra),
the thread count is restored after the plan, and results equal numpy's."""

import numpy as np
import pytest
import threadpoolctl
from autograph_py.runtime import blas_threads

import autograph_py as ag


def _blas_thread_counts():
    return [info["num_threads"] for info in threadpoolctl.threadpool_info()
            if info["user_api"] == "blas"]


def _matmul_session(m, k, n):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    graph = ag.Graph()
    with graph.as_default():
        pa, pb = ag.placeholder(ag.float32, [m, k]), ag.placeholder(ag.float32, [k, n])
        out = ag.matmul(pa, pb)
    sess = ag.Session(graph)
    return sess, out, {pa: a, pb: b}, a @ b


@pytest.mark.parametrize("m, k, n, one_thread", [
    (128, 256, 256, True),    # 1.7e7 FLOP: one thread
    (4, 8, 8, False),         # 512 FLOP: BLAS uses one thread by itself, no switch
    (512, 512, 512, False),   # 2.7e8 FLOP: big enough for every thread
])
def test_a_plan_switches_to_one_blas_thread_only_for_small_products(m, k, n, one_thread):
    sess, out, feeds, expected = _matmul_session(m, k, n)
    with sess:
        assert ("one_blas_thread()" in sess.code(out, list(feeds))) == one_thread
        before = _blas_thread_counts()
        np.testing.assert_allclose(sess.run(out, feeds), expected, rtol=1e-4, atol=1e-3)
        assert _blas_thread_counts() == before  # restored after the run


def test_the_count_is_one_while_the_plan_runs_and_restored_after_an_error():
    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        previous = blas_threads.one_thread()
        assert _blas_thread_counts() == [1] * len(previous)
        blas_threads.restore(previous)
        assert _blas_thread_counts() == previous
        graph = ag.Graph()
        with graph.as_default():
            a, b = ag.placeholder(ag.float32, [128, 256]), ag.placeholder(ag.float32, [256, 256])
            i, j = ag.placeholder(ag.int32, []), ag.placeholder(ag.int32, [])
            fetches = [ag.matmul(a, b), ag.floordiv(i, j)]
        feeds = {a: np.ones((128, 256), np.float32), b: np.ones((256, 256), np.float32),
                 i: np.int32(1), j: np.int32(0)}
        with ag.Session(graph) as sess:
            assert "one_blas_thread()" in sess.code(fetches, list(feeds))
            with pytest.raises(ZeroDivisionError):  # raised inside the plan, after the switch
                sess.run(fetches, feeds)
        assert _blas_thread_counts() == previous


def test_without_threadpoolctl_the_switch_is_a_no_op(monkeypatch):
    monkeypatch.setattr(blas_threads, "_blas", lambda: None)
    sess, out, feeds, expected = _matmul_session(128, 256, 256)
    before = _blas_thread_counts()
    with sess:
        np.testing.assert_allclose(sess.run(out, feeds), expected, rtol=1e-4, atol=1e-3)
    assert blas_threads.one_thread() is None and _blas_thread_counts() == before
