"""`ag.optimizers` (issue 25): each optimizer's update, step after step, against a numpy
reimplementation of Keras's documented rule, eagerly, inside `ag.function` (slots made
on the first trace, reused by later calls and traces; compiled by XLA too) and in a graph
a Session runs; the None-gradient warning; learning rates as Variables, schedules and
callables."""

import warnings

import numpy as np
import pytest

import autograph_py as ag

STEPS = 5


def sgd_rule(w, grads, lr, momentum=0.0, nesterov=False):
    velocity = np.zeros_like(w)
    for g in grads:
        if momentum == 0:
            w = w - lr * g
        else:
            velocity = momentum * velocity - lr * g
            w = w + (momentum * velocity - lr * g if nesterov else velocity)
        yield w


def adam_rule(w, grads, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    m = v = np.zeros_like(w)
    for t, g in enumerate(grads, start=1):
        alpha = lr * np.sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)
        m = m + (g - m) * (1 - beta_1)
        v = v + (g * g - v) * (1 - beta_2)
        w = w - alpha * m / (np.sqrt(v) + epsilon)
        yield w


def rmsprop_rule(w, grads, lr, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    velocity = average = moment = np.zeros_like(w)
    for g in grads:
        velocity = rho * velocity + (1 - rho) * g * g
        if centered:
            average = rho * average + (1 - rho) * g
            denominator = velocity - average * average + epsilon
        else:
            denominator = velocity + epsilon
        increment = lr * g / np.sqrt(denominator)
        if momentum > 0:
            moment = momentum * moment + increment
            w = w - moment
        else:
            w = w - increment
        yield w


def adagrad_rule(w, grads, lr, initial_accumulator_value=0.1, epsilon=1e-7):
    accumulator = np.full_like(w, initial_accumulator_value)
    for g in grads:
        accumulator = accumulator + g * g
        w = w - lr * g / np.sqrt(accumulator + epsilon)
        yield w


CASES = {
    "sgd": (ag.optimizers.SGD, sgd_rule, dict(learning_rate=0.1)),
    "sgd_momentum": (ag.optimizers.SGD, sgd_rule, dict(learning_rate=0.1, momentum=0.9)),
    "sgd_nesterov": (ag.optimizers.SGD, sgd_rule,
                     dict(learning_rate=0.1, momentum=0.8, nesterov=True)),
    "adam": (ag.optimizers.Adam, adam_rule, dict(learning_rate=0.01)),
    "adam_hyper": (ag.optimizers.Adam, adam_rule,
                   dict(learning_rate=0.02, beta_1=0.8, beta_2=0.99, epsilon=1e-3)),
    "rmsprop": (ag.optimizers.RMSprop, rmsprop_rule, dict(learning_rate=0.01)),
    "rmsprop_momentum": (ag.optimizers.RMSprop, rmsprop_rule,
                         dict(learning_rate=0.01, momentum=0.5)),
    "rmsprop_centered": (ag.optimizers.RMSprop, rmsprop_rule,
                         dict(learning_rate=0.01, rho=0.8, centered=True)),
    "rmsprop_centered_momentum": (ag.optimizers.RMSprop, rmsprop_rule,
                                  dict(learning_rate=0.01, momentum=0.3, epsilon=1e-3,
                                       centered=True)),
    "adagrad": (ag.optimizers.Adagrad, adagrad_rule, dict(learning_rate=0.1)),
    "adagrad_hyper": (ag.optimizers.Adagrad, adagrad_rule,
                      dict(learning_rate=0.1, initial_accumulator_value=0.5, epsilon=1e-3)),
}
TOLERANCE = {np.float32: dict(rtol=2e-5, atol=1e-6), np.float64: dict(rtol=1e-10, atol=1e-12)}


def problem(dtype, seed):
    """A starting value and one gradient per step."""
    rng = np.random.default_rng(seed)
    w0 = rng.normal(size=(2, 3)).astype(dtype)
    grads = [rng.normal(size=(2, 3)).astype(dtype) for _ in range(STEPS)]
    return w0, grads


def expected(rule, hyper, w0, grads):
    """The rule in float64; the learning rate as the optimizer keeps it: in a float32
    Variable (Keras's)."""
    hyper = dict(hyper, lr=float(np.float32(hyper.pop("learning_rate"))))
    return list(rule(w0.astype(np.float64), [g.astype(np.float64) for g in grads], **hyper))


def run_eager(make, w0, grads):
    opt, w = make(), ag.Variable(w0)
    for g in grads:
        opt.apply_gradients([(ag.constant(g), w)])
        yield w.numpy()


def run_function(make, w0, grads, jit_compile=False):
    opt, w = make(), ag.Variable(w0)

    @ag.function(jit_compile=jit_compile)
    def step(g):
        return opt.apply_gradients(zip([g], [w]))

    traces = []
    for g in grads:
        step(ag.constant(g))
        traces.append(step.trace_count)
        yield w.numpy()
    # The first call may trace twice (it made the slots: docs/function.md, "Variables"),
    # later calls run that graph.
    assert len(set(traces)) == 1


def run_graph(make, w0, grads):
    with ag.Graph().as_default():
        opt, w = make(), ag.Variable(w0)
        g = ag.placeholder(ag.as_dtype(w0.dtype), w0.shape)
        train = opt.apply_gradients([(g, w)])
        with ag.Session() as sess:
            for grad in grads:
                sess.run(train, {g: grad})
                yield sess.run(w)


RUNNERS = {"eager": run_eager, "function": run_function, "graph": run_graph,
           "jit_compile": lambda *args: run_function(*args, jit_compile=True)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("mode", RUNNERS)
@pytest.mark.parametrize("case", CASES)
def test_update_follows_the_documented_rule_step_by_step(case, mode, dtype):
    cls, rule, hyper = CASES[case]
    w0, grads = problem(dtype, seed=len(case))
    want = expected(rule, dict(hyper), w0, grads)
    got = list(RUNNERS[mode](lambda: cls(**hyper), w0, grads))
    assert len(got) == STEPS
    for step, (g, e) in enumerate(zip(got, want)):
        assert g.dtype == dtype
        np.testing.assert_allclose(g, e, **TOLERANCE[dtype], err_msg=f"step {step + 1}")


def test_defaults_are_keras_defaults():
    w0, grads = problem(np.float64, seed=3)
    for cls, rule in [(ag.optimizers.SGD, sgd_rule), (ag.optimizers.Adam, adam_rule),
                      (ag.optimizers.RMSprop, rmsprop_rule),
                      (ag.optimizers.Adagrad, adagrad_rule)]:
        lr = cls().learning_rate.numpy()
        want = expected(rule, {"learning_rate": lr}, w0, grads)
        got = list(run_eager(cls, w0, grads))
        np.testing.assert_allclose(got, want, rtol=1e-10, err_msg=cls.__name__)


def test_slots_are_made_on_the_first_trace_and_reused_by_later_traces():
    opt = ag.optimizers.Adam(0.1)
    w = ag.Variable([1.0, -2.0])

    @ag.function
    def step(scale):  # a Python number: each new value traces again
        with ag.GradientTape() as tape:
            loss = ag.reduce_sum(w * w) * scale
        grads = tape.gradient(loss, [w])
        return opt.apply_gradients(zip(grads, [w]))

    step(1.0)
    made, traces = list(opt.variables), step.trace_count
    assert len(made) == 4  # iterations, learning rate, m, v
    step(1.0)
    step(2.0)  # a new trace finds the slots (making one there would raise)
    assert step.trace_count == traces + 1
    assert all(a is b for a, b in zip(opt.variables, made)) and len(opt.variables) == 4
    assert int(opt.iterations) == 3


def test_a_function_step_matches_the_eager_step_with_a_tape():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    y = rng.normal(size=(8,)).astype(np.float32)

    def make():
        return ag.optimizers.RMSprop(0.05, momentum=0.5), ag.Variable(np.zeros(3, np.float32))

    def step(opt, w):
        with ag.GradientTape() as tape:
            loss = ag.reduce_mean(ag.square(ag.reduce_sum(x * w, axis=1) - y))
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
        return loss

    eager_opt, eager_w = make()
    function_opt, function_w = make()
    traced = ag.function(lambda: step(function_opt, function_w))
    for _ in range(4):
        np.testing.assert_allclose(traced().numpy(), step(eager_opt, eager_w).numpy(),
                                   rtol=1e-6)
    np.testing.assert_allclose(function_w.numpy(), eager_w.numpy(), rtol=1e-6)


def test_iterations_counts_steps_and_apply_gradients_returns_it():
    opt = ag.optimizers.SGD(0.5)
    w = ag.Variable(1.0)
    for expected_count in (1, 2, 3):
        result = opt.apply_gradients([(ag.constant(1.0), w)])
        assert int(result) == int(opt.iterations) == expected_count
    assert opt.iterations.dtype == ag.int64 and not opt.iterations.trainable


def test_a_none_gradient_is_skipped_with_a_warning_naming_the_variable():
    used = ag.Variable([1.0, 2.0], name="used_weight")
    unused = ag.Variable([5.0], name="unused_bias")
    opt = ag.optimizers.SGD(0.1)
    with ag.GradientTape() as tape:
        loss = ag.reduce_sum(used * used)
    grads = tape.gradient(loss, [used, unused])
    assert grads[1] is None
    with pytest.warns(ag.optimizers.MissingGradientWarning,
                      match=r"\['unused_bias'\]") as caught:
        opt.apply_gradients(zip(grads, [used, unused]))
    assert caught[0].filename == __file__  # the user's line, not the optimizer's
    np.testing.assert_allclose(used.numpy(), [1.0 - 0.2, 2.0 - 0.4], rtol=1e-6)
    np.testing.assert_array_equal(unused.numpy(), [5.0])


def test_a_none_gradient_inside_a_function_warns_when_traced_and_is_skipped_on_each_call():
    used = ag.Variable(3.0, name="traced_used")
    unused = ag.Variable(4.0, name="traced_unused")
    opt = ag.optimizers.SGD(0.25)

    @ag.function
    def step():
        with ag.GradientTape() as tape:
            loss = used * used
        grads = tape.gradient(loss, [used, unused])
        opt.apply_gradients(zip(grads, [used, unused]))

    with pytest.warns(ag.optimizers.MissingGradientWarning, match="traced_unused"):
        step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        step()  # the compiled graph: no Python runs, no warning
    assert float(used) == pytest.approx(3.0 * (1 - 0.5) ** 2)
    assert float(unused) == 4.0


def test_no_gradient_at_all_is_an_error_naming_the_variables():
    w = ag.Variable(1.0, name="lonely")
    with pytest.raises(ValueError, match=r"No gradients provided for any variable: \['lonely'\]"):
        ag.optimizers.Adam().apply_gradients([(None, w)])


@pytest.mark.parametrize("pairs, error, message", [
    (lambda w: [(ag.constant([1.0, 2.0]), w)], ValueError, "has shape"),
    (lambda w: [(ag.constant(1.0), ag.constant(2.0))], TypeError, "Variable"),
    (lambda w: [ag.constant(1.0)], TypeError, "pairs"),
], ids=["shape", "not_a_variable", "not_a_pair"])
def test_malformed_pairs_are_refused(pairs, error, message):
    w = ag.Variable([1.0, 2.0, 3.0])
    with pytest.raises(error, match=message):
        ag.optimizers.SGD().apply_gradients(pairs(w))


def test_a_gradient_of_another_dtype_is_cast_to_the_variable_dtype():
    w = ag.Variable(np.array([1.0, 2.0]))  # float64
    ag.optimizers.SGD(0.5).apply_gradients([(ag.constant([1.0, 1.0]), w)])  # float32
    assert w.dtype == ag.float64
    np.testing.assert_allclose(w.numpy(), [0.5, 1.5])


def test_setting_the_learning_rate_reaches_a_traced_function_without_retracing():
    opt = ag.optimizers.SGD(0.5)
    w = ag.Variable(0.0)

    @ag.function
    def step():
        return opt.apply_gradients([(ag.constant(1.0), w)])

    step()
    traces = step.trace_count
    opt.learning_rate = 0.25
    step()
    assert float(w) == pytest.approx(-0.75)
    assert step.trace_count == traces
    assert float(opt.learning_rate) == 0.25


def test_a_schedule_drives_the_learning_rate_by_iterations():
    schedule = ag.optimizers.schedules.PiecewiseConstantDecay([1, 3], [1.0, 0.5, 0.25])
    opt = ag.optimizers.SGD(schedule)
    w = ag.Variable(0.0)

    @ag.function
    def step():
        return opt.apply_gradients([(ag.constant(1.0), w)])

    rates = [float(opt.learning_rate)]
    step()
    traces = step.trace_count
    for _ in range(4):
        rates.append(float(opt.learning_rate))
        step()
    # The rate of a step is read at `iterations` before it grows.
    assert rates == [float(schedule(t)) for t in range(5)]
    assert float(w) == pytest.approx(-sum(rates))
    assert step.trace_count == traces
    with pytest.raises(TypeError, match="cannot be set"):
        opt.learning_rate = 0.1


def test_a_callable_learning_rate_is_called_on_each_step():
    rate = {"value": 0.5}
    opt = ag.optimizers.SGD(lambda: rate["value"])
    w = ag.Variable(0.0)
    opt.apply_gradients([(ag.constant(1.0), w)])
    rate["value"] = 0.125
    opt.apply_gradients([(ag.constant(1.0), w)])
    assert float(w) == pytest.approx(-0.625)


def test_build_makes_slots_ahead_of_the_first_step():
    w, v = ag.Variable([1.0, 2.0], name="bw"), ag.Variable(3.0, name="bv")
    opt = ag.optimizers.RMSprop(momentum=0.9, centered=True)
    opt.build([w, v])
    slots = opt.variables[2:]
    assert [s.name for s in slots] == ["bw_velocity", "bw_momentum", "bw_average_gradient",
                                       "bv_velocity", "bv_momentum", "bv_average_gradient"]
    assert all(not s.trainable for s in slots)
    opt.apply_gradients([(ag.constant([1.0, 1.0]), w)])
    assert opt.variables[2:] == slots


@pytest.mark.parametrize("make, message", [
    (lambda: ag.optimizers.SGD(momentum=1.5), "momentum"),
    (lambda: ag.optimizers.SGD(learning_rate="fast"), "learning_rate"),
    (lambda: ag.optimizers.Adagrad(initial_accumulator_value=-1.0),
     "initial_accumulator_value"),
], ids=["momentum", "learning_rate", "accumulator"])
def test_bad_hyperparameters_are_refused(make, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make()


def test_the_namespaces_hold_the_api_only():
    assert dir(ag.optimizers) == ["Adagrad", "Adam", "MissingGradientWarning", "Optimizer",
                                  "RMSprop", "SGD", "schedules"]
    assert dir(ag.optimizers.schedules) == ["ExponentialDecay", "LearningRateSchedule",
                                            "PiecewiseConstantDecay"]
    with pytest.raises(AttributeError, match="did you mean 'Adam'"):
        ag.optimizers.Adamw  # noqa: B018
