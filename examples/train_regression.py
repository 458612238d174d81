"""Train a logistic regression with a GradientTape inside `@ag.function`.

Run: `python examples/train_regression.py`. It generates labelled 2-D points, then runs a
training step (forward pass, tape gradient, gradient clipping with a plain Python `if` on
a tensor, `assign_sub` updates) traced once into a graph, and prints the falling loss.
tests/runtime/test_gradients_example.py checks that the loss falls below a threshold.
"""

import numpy as np

import autograph_py as ag


def make_data(n=256, seed=0):
    """Points x in R^2 labelled 1 with probability sigmoid(x . [2, -3] + 0.5)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 2)).astype(np.float32)
    logits = x @ np.array([[2.0], [-3.0]], np.float32) + 0.5
    y = (rng.uniform(size=(n, 1)) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    return x, y


class LogisticRegression:
    def __init__(self, features):
        self.w = ag.Variable(np.zeros((features, 1), np.float32), name="w")
        self.b = ag.Variable(np.zeros((1,), np.float32), name="b")

    def __call__(self, x):
        return ag.sigmoid(ag.matmul(x, self.w) + self.b)


def cross_entropy(p, y):
    eps = 1e-6  # keeps log() finite when a prediction saturates
    return -ag.reduce_mean(y * ag.log(p + eps) + (1 - y) * ag.log(1 - p + eps))


def make_train_step(model, learning_rate, max_norm):
    @ag.function
    def train_step(x, y):
        with ag.GradientTape() as tape:
            loss = cross_entropy(model(x), y)
        grad_w, grad_b = tape.gradient(loss, [model.w, model.b])
        norm = ag.sqrt(ag.reduce_sum(grad_w * grad_w) + ag.reduce_sum(grad_b * grad_b))
        if norm > max_norm:  # staged as a cond: the norm is only known when the graph runs
            grad_w = grad_w * (max_norm / norm)
            grad_b = grad_b * (max_norm / norm)
        model.w.assign_sub(learning_rate * grad_w)
        model.b.assign_sub(learning_rate * grad_b)
        return loss

    return train_step


def train(steps=200, learning_rate=1.0, max_norm=1.0, print_every=20):
    """Train on generated data; print and return the loss of every step."""
    features, labels = make_data()
    model = LogisticRegression(features.shape[1])
    train_step = make_train_step(model, learning_rate, max_norm)
    x, y = ag.constant(features), ag.constant(labels)
    losses = []
    for step in range(steps):
        losses.append(float(train_step(x, y)))
        if step % print_every == 0 or step == steps - 1:
            print(f"step {step:4d}  loss {losses[-1]:.4f}")
    print(f"learned w = {model.w.numpy().ravel()}, b = {model.b.numpy()} "
          f"(data made with w = [2, -3], b = 0.5); traced {train_step.trace_count} time(s)")
    return losses


if __name__ == "__main__":
    train()
