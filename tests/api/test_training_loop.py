"""A training loop as a TensorFlow user writes it (issue 25): an `ag.Module`, a loss under
a GradientTape over `model.trainable_variables`, an optimizer's `apply_gradients`, all in
one `ag.function` step. A linear regression, so numpy's least squares is the oracle: the
loss goes down to the optimum and the weights to the least-squares solution."""

import numpy as np
import pytest

import autograph_py as ag


class Linear(ag.Module):
    def __init__(self, n_in, name=None):
        super().__init__(name=name)
        self.w = ag.Variable(np.zeros((n_in, 1), np.float32), name="w")
        self.b = ag.Variable(np.zeros(1, np.float32), name="b")

    def __call__(self, x):
        return ag.matmul(x, self.w) + self.b


def regression_data(seed=0, n=64):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = x @ np.array([[1.5], [-2.0], [0.5]], np.float32) + 0.7
    y = (y + 0.3 * rng.normal(size=(n, 1))).astype(np.float32)  # no exact fit
    design = np.hstack([x, np.ones((n, 1))]).astype(np.float64)
    solution, *_ = np.linalg.lstsq(design, y.astype(np.float64), rcond=None)
    optimum = float(np.mean((design @ solution - y) ** 2))
    return x, y, solution, optimum


OPTIMIZERS = {
    "sgd": (lambda: ag.optimizers.SGD(0.1), 300),
    "sgd_nesterov": (lambda: ag.optimizers.SGD(0.05, momentum=0.9, nesterov=True), 300),
    "adam": (lambda: ag.optimizers.Adam(0.05), 600),
    "rmsprop": (lambda: ag.optimizers.RMSprop(ag.optimizers.schedules.ExponentialDecay(
        0.02, 100, 0.5)), 600),
    "adagrad": (lambda: ag.optimizers.Adagrad(0.5), 600),
}


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_a_function_training_step_reaches_the_least_squares_optimum(name):
    make_optimizer, steps = OPTIMIZERS[name]
    x, y, solution, optimum = regression_data()
    model, opt = Linear(3), make_optimizer()

    @ag.function
    def train_step(x, y):
        with ag.GradientTape() as tape:
            loss = ag.reduce_mean(ag.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = [float(train_step(x, y)) for _ in range(steps)]
    final = float(ag.reduce_mean(ag.square(model(x) - y)))
    assert losses[0] > 10 * optimum
    assert max(losses[-10:]) < losses[0] / 10
    assert final == pytest.approx(optimum, rel=1e-4)
    b, w = model.trainable_variables
    np.testing.assert_allclose(np.append(w.numpy(), b.numpy()), solution[:, 0], atol=1e-3)
    assert int(opt.iterations) == steps


def test_an_eager_training_loop_takes_the_same_steps_as_the_function():
    x, y, _, _ = regression_data(seed=1, n=16)
    runs = []
    for wrap in (lambda f: f, ag.function):
        model, opt = Linear(3), ag.optimizers.Adam(0.1)

        def train_step(x, y, model=model, opt=opt):
            with ag.GradientTape() as tape:
                loss = ag.reduce_mean(ag.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        step = wrap(train_step)
        losses = [float(step(ag.constant(x), ag.constant(y))) for _ in range(20)]
        runs.append((losses, [v.numpy() for v in model.variables]))
    (eager_losses, eager_vars), (function_losses, function_vars) = runs
    np.testing.assert_allclose(function_losses, eager_losses, rtol=1e-5)
    for e, f in zip(eager_vars, function_vars):
        np.testing.assert_allclose(f, e, rtol=1e-5, atol=1e-7)


class Regressor(ag.Module):
    """A model whose step is an `ag.function` method: its layer is built on the first
    call and the optimizer it holds makes its slots then."""

    def __init__(self):
        super().__init__()
        self.layer = None
        self.optimizer = ag.optimizers.Adam(0.05)

    def __call__(self, x):
        if self.layer is None:
            self.layer = Linear(x.shape[-1])
        return self.layer(x)

    @ag.function
    def train_step(self, x, y):
        with ag.GradientTape() as tape:
            loss = ag.reduce_mean(ag.square(self(x) - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return loss


def test_a_module_with_a_function_train_step_method_builds_and_trains():
    x, y, solution, optimum = regression_data(seed=2)
    model = Regressor()
    assert model.variables == () and model.submodules == ()
    losses = [float(model.train_step(x, y)) for _ in range(600)]
    assert model.submodules == (model.layer,)
    assert model.trainable_variables == (model.layer.b, model.layer.w)
    # The optimizer is not a Module: its slots are its own, not the model's.
    assert len(model.optimizer.variables) == 2 + 2 * len(model.trainable_variables)
    assert losses[-1] == pytest.approx(optimum, rel=1e-3)
    np.testing.assert_allclose(np.append(model.layer.w.numpy(), model.layer.b.numpy()),
                               solution[:, 0], atol=1e-3)
