"""`ag.optimizers.schedules` (issue 25): ExponentialDecay and PiecewiseConstantDecay
against their documented formulas, for Python steps, int64 step tensors (an optimizer's
`iterations`), in a graph and inside `ag.function` (one trace serves every step)."""

import math

import numpy as np
import pytest

import autograph_py as ag

schedules = ag.optimizers.schedules


def exponential(initial, decay_steps, decay_rate, staircase, step):
    exponent = step / decay_steps
    return initial * decay_rate ** (math.floor(exponent) if staircase else exponent)


def piecewise(boundaries, values, step):
    for boundary, value in zip(boundaries, values):
        if step <= boundary:
            return value
    return values[-1]


EXPONENTIAL = [(0.1, 10, 0.5, False), (0.1, 10, 0.5, True), (2.0, 3, 0.9, True),
               (0.05, 7.5, 0.96, False)]
PIECEWISE = [([10, 20], [1.0, 0.5, 0.1]), ([0], [3.0, 2.0]), ([5, 6, 9], [4, 3, 2, 1]),
             ([2.5], [0.2, 0.02])]
STEPS = list(range(0, 32)) + [50, 100]


@pytest.mark.parametrize("args", EXPONENTIAL, ids=str)
def test_exponential_decay_follows_its_formula(args):
    schedule = schedules.ExponentialDecay(*args)
    for step in STEPS:
        want = exponential(*args, step)
        for given in (step, ag.constant(step, ag.int64)):
            got = schedule(given)
            assert got.dtype == ag.float32
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, err_msg=f"step {step}")


@pytest.mark.parametrize("args", PIECEWISE, ids=str)
def test_piecewise_constant_decay_follows_its_formula(args):
    schedule = schedules.PiecewiseConstantDecay(*args)
    for step in STEPS:
        want = piecewise(*args, step)
        got = schedule(ag.constant(step, ag.int64))
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, err_msg=f"step {step}")
    values = args[1]
    assert schedule(0).dtype == ag.constant(values).dtype


@pytest.mark.parametrize("schedule, formula", [
    (schedules.ExponentialDecay(0.3, 4, 0.7, staircase=True),
     lambda step: exponential(0.3, 4, 0.7, True, step)),
    (schedules.PiecewiseConstantDecay([3, 7], [0.5, 0.25, 0.125]),
     lambda step: piecewise([3, 7], [0.5, 0.25, 0.125], step)),
], ids=["exponential", "piecewise"])
def test_schedules_are_ops_in_graphs_and_functions(schedule, formula):
    with ag.Graph().as_default():
        step = ag.placeholder(ag.int64, [])
        rate = schedule(step)
        with ag.Session() as sess:
            got = [sess.run(rate, {step: s}) for s in STEPS]
    np.testing.assert_allclose(got, [formula(s) for s in STEPS], rtol=1e-6)

    traced = ag.function(schedule.__call__)
    got = [traced(ag.constant(s, ag.int64)).numpy() for s in STEPS]
    np.testing.assert_allclose(got, [formula(s) for s in STEPS], rtol=1e-6)
    assert traced.trace_count == 1


def test_an_optimizer_steps_through_its_schedule():
    args = (0.5, 2, 0.5, True)
    opt = ag.optimizers.SGD(schedules.ExponentialDecay(*args))
    w = ag.Variable(0.0)

    @ag.function
    def step():
        opt.apply_gradients([(ag.constant(1.0), w)])

    for _ in range(6):
        step()
    assert float(w) == pytest.approx(-sum(exponential(*args, t) for t in range(6)))


def test_get_config_round_trips():
    for schedule in (schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True, name="decay"),
                     schedules.PiecewiseConstantDecay([1, 2], [3.0, 2.0, 1.0])):
        copy = type(schedule).from_config(schedule.get_config())
        assert copy.get_config() == schedule.get_config()
        assert float(copy(5)) == float(schedule(5))
    assert isinstance(schedule, schedules.LearningRateSchedule)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="1 less than"):
        schedules.PiecewiseConstantDecay([1, 2], [1.0, 2.0])
    with pytest.raises(ValueError, match="decay_steps"):
        schedules.ExponentialDecay(0.1, 0, 0.5)
