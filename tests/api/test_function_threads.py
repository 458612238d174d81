"""`ag.function` across threads (issue 11 §3): concurrent first calls trace once (a
lazily created Variable is created once), and a stress run of 8 threads × 200 calls
mixing signatures, gradient tapes and Variable updates gives exact results."""

import sys
import threading

import numpy as np
import pytest

import autograph_py as ag

THREADS = 8


def run_in_threads(work, count=THREADS):
    """Run `work(i)` in `count` threads started together, switching between them often
    (so that races show); re-raise the first failure."""
    start = threading.Barrier(count)
    errors = []

    def target(i):
        start.wait()
        try:
            work(i)
        except BaseException as e:  # noqa: BLE001 -- handed to the test thread
            errors.append(e)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    if errors:
        raise errors[0]


class Model:
    """Creates its accumulator on the first trace; `body_runs` counts traces of `step`
    (the first call traces twice: the first trace created a Variable, TensorFlow's rule)."""

    def __init__(self):
        self.total = None
        self.w = ag.Variable(2.0)
        self.body_runs = 0

    @ag.function
    def step(self, x, k):
        self.body_runs += 1          # Python: runs while tracing only
        if self.total is None:
            self.total = ag.Variable(0.0)
        self.total.assign_add(ag.reduce_sum(x) * k)
        return ag.reduce_sum(x * self.w) * k


def test_concurrent_first_calls_trace_once_and_create_the_variable_once():
    model = Model()
    results = [None] * THREADS

    def call(i):
        results[i] = float(model.step(ag.constant([float(i), 1.0]), 3))

    run_in_threads(call)
    assert results == [(i + 1.0) * 2.0 * 3 for i in range(THREADS)]
    assert model.step.trace_count == model.body_runs == 2
    assert float(model.total) == sum((i + 1.0) * 3 for i in range(THREADS))


@pytest.mark.filterwarnings("ignore:ag.function 'step' was traced 6 times")
def test_threads_mixing_signatures_tapes_and_variable_updates():
    model = Model()
    calls = 200
    failures = []

    def work(i):
        for j in range(calls):
            n, k = 1 + (i + j) % 3, 1 + j % 2        # 3 shapes × 2 Python values
            value = np.arange(n, dtype=np.float32) + i
            x = ag.constant(value)
            expected = float(value.sum()) * 2.0 * k
            if j % 2:
                with ag.GradientTape() as tape:
                    tape.watch(x)
                    y = model.step(x, k)
                dx, dw = tape.gradient(y, [x, model.w])
                if not (np.array_equal(dx.numpy(), np.full(n, 2.0 * k, np.float32))
                        and float(dw) == float(value.sum()) * k):
                    failures.append(("gradient", i, j, dx.numpy(), float(dw)))
            else:
                y = model.step(x, k)
            if float(y) != expected:
                failures.append(("value", i, j, float(y), expected))

    run_in_threads(work)
    assert failures == []
    assert model.step.trace_count == model.body_runs == 6 + 1   # 6 signatures, 1 check
    expected_total = sum(float((np.arange(1 + (i + j) % 3) + i).sum()) * (1 + j % 2)
                         for i in range(THREADS) for j in range(calls))
    assert float(model.total) == expected_total
