"""Per-thread runtime state (DESIGN.md §3): a graph being built, a recording gradient tape
or a variable-creation hook in one thread never sees what another thread runs.

Threads meet at barriers so that the other thread's work happens while the state under
test is active; the oracles are the derivatives of plain arithmetic.
"""

import threading

import numpy as np
import pytest
from autograph_py.runtime import context

import autograph_py as ag


def run_in_threads(*targets):
    """Run each target in its own thread; re-raise the first failure."""
    errors = []

    def guarded(target):
        try:
            target()
        except BaseException as e:  # reported in the main thread below
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if errors:
        raise errors[0]


def test_a_tape_does_not_record_ops_that_another_thread_runs():
    x = ag.constant(3.0)
    inside, done = threading.Barrier(2, timeout=30), threading.Barrier(2, timeout=30)
    result = {}

    def recording_thread():
        with ag.GradientTape() as tape:
            tape.watch(x)
            inside.wait()  # the tape records now...
            done.wait()    # ...while the other thread computed from the watched x
            own = x * x
        # The target sums both products: x*5, if recorded, would add 5 to the gradient.
        result["gradient"] = tape.gradient([result["product"], own], x)

    def other_thread():
        inside.wait()
        result["product"] = x * 5.0
        done.wait()

    run_in_threads(recording_thread, other_thread)
    # Only the recording thread's own x*x reaches the tape: d(x*x)/dx = 2x.
    assert float(result["gradient"]) == 2 * 3.0


def test_tapes_in_concurrent_threads_compute_their_own_gradients():
    barrier = threading.Barrier(4, timeout=30)
    grads = {}

    def worker(k):
        def run():
            x = ag.constant(float(k))
            with ag.GradientTape() as tape:
                tape.watch(x)
                barrier.wait()  # all four tapes record at once
                y = x * x * x
                barrier.wait()
            grads[k] = float(tape.gradient(y, x))
        return run

    run_in_threads(*[worker(k) for k in range(1, 5)])
    assert grads == {k: 3.0 * k * k for k in range(1, 5)}  # d(x^3)/dx


def test_a_graph_being_built_in_one_thread_leaves_other_threads_eager():
    inside, done = threading.Barrier(2, timeout=30), threading.Barrier(2, timeout=30)
    seen = {}

    def building_thread():
        with ag.Graph().as_default() as g:
            inside.wait()
            done.wait()
            seen["ops in graph"] = len(g.get_operations())

    def eager_thread():
        inside.wait()
        seen["eager"] = ag.executing_eagerly()
        seen["value"] = (ag.constant(2.0) + 1.0).numpy()
        done.wait()

    run_in_threads(building_thread, eager_thread)
    assert seen == {"ops in graph": 0, "eager": True, "value": 3.0}


def test_a_variable_creation_hook_applies_to_its_own_thread_only():
    inside, done = threading.Barrier(2, timeout=30), threading.Barrier(2, timeout=30)
    made = {}

    def refuse(variable):
        raise RuntimeError("no variables in this thread")

    def guarded_thread():
        hooks = context.variable_creation_hooks()
        hooks.append(refuse)
        try:
            inside.wait()
            done.wait()
            with pytest.raises(RuntimeError, match="no variables in this thread"):
                ag.Variable(1.0)
        finally:
            hooks.remove(refuse)

    def free_thread():
        inside.wait()
        made["variable"] = ag.Variable(2.0)
        done.wait()

    run_in_threads(guarded_thread, free_thread)
    assert made["variable"].numpy() == 2.0


def test_stress_tapes_and_variable_updates_in_eight_threads():
    """8 threads x 200 steps: each thread differentiates with its own tape and updates
    its own Variable, all at once. Every gradient and final value is exact."""
    threads, steps = 8, 200
    start = threading.Barrier(threads, timeout=30)
    results = {}

    def worker(k):
        def run():
            v = ag.Variable(0.0)
            grads = []
            start.wait()
            for i in range(steps):
                x = ag.constant(float(i % 7 + k))
                with ag.GradientTape() as tape:
                    tape.watch(x)
                    y = x * x + v * x  # dy/dx = 2x + v, v read before this step's update
                grads.append(float(tape.gradient(y, x)))
                v.assign_add(1.0)
            results[k] = (grads, v.numpy())
        return run

    run_in_threads(*[worker(k) for k in range(threads)])
    for k in range(threads):
        expected = [2.0 * (i % 7 + k) + i for i in range(steps)]
        grads, final = results[k]
        assert grads == expected
        assert final == np.float32(steps)
