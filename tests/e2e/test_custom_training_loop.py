"""examples/custom_training_loop.py, TensorFlow's custom-training-loop tutorial ported,
runs as a script and learns (issue 25).

Oracles, all numpy: the trained model's weights run forward in numpy give the accuracy the
program prints; the references its results are held to are computed from the same data:
the least-squares linear classifier (the MLP must close at least half of its gap to a
perfect score) and the best constant prediction, the class frequencies (the MLP's
cross-entropy must be at most half of that).
"""

import contextlib
import io
import pathlib
import re
import runpy

import numpy as np
import pytest

import autograph_py as ag

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "custom_training_loop.py"


@pytest.fixture(scope="module")
def run():
    """(the program's globals, what it printed), run as `python FILE` runs it; the global
    seed makes the weights and the shuffles the same on every run of the test."""
    out = io.StringIO()
    ag.random.set_seed(2024)
    try:
        with contextlib.redirect_stdout(out):
            program = runpy.run_path(str(EXAMPLE), run_name="__main__")
    finally:
        ag.random.set_seed(None)
    return program, out.getvalue()


def printed(text, label):
    return [float(v) for v in re.findall(rf"^{re.escape(label)}:? ?(?:at step \d+: )?([\d.]+)",
                                         text, re.M)]


def forward(model, x):
    """The MLP in numpy, from the trained Variables."""
    hidden = np.maximum(x @ model.dense_1.w.numpy() + model.dense_1.b.numpy(), 0)
    hidden = np.maximum(hidden @ model.dense_2.w.numpy() + model.dense_2.b.numpy(), 0)
    return hidden @ model.predictions.w.numpy() + model.predictions.b.numpy()


def cross_entropy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels].mean()


def least_squares_accuracy(program):
    """Accuracy on the validation set of the linear classifier fitted in closed form:
    least squares from [x, 1] to the one-hot labels, then argmax."""
    def design(x):
        return np.hstack([x, np.ones((len(x), 1))])

    onehot = np.eye(3)[program["y_train"]]
    weights = np.linalg.lstsq(design(program["x_train"]), onehot, rcond=None)[0]
    return np.mean(np.argmax(design(program["x_val"]) @ weights, axis=1) == program["y_val"])


def test_the_loss_falls_from_epoch_to_epoch(run):
    program, text = run
    losses = np.array(printed(text, "Training loss (for 1 batch)"))
    per_epoch = losses.reshape(program["epochs"], -1)  # the same steps are logged each epoch
    assert per_epoch[-1].mean() < per_epoch[0].mean() / 2
    train_acc = printed(text, "Training acc over epoch")
    assert len(train_acc) == program["epochs"] and train_acc[-1] > train_acc[0]


def test_the_printed_accuracy_is_the_models_own(run):
    program, text = run
    logits = forward(program["model"], program["x_val"])
    accuracy = np.mean(np.argmax(logits, axis=1) == program["y_val"])
    assert printed(text, "Validation acc")[-1] == pytest.approx(accuracy, abs=5e-5)


def test_the_model_beats_the_numpy_references(run):
    program, _ = run
    x_val, y_val = program["x_val"], program["y_val"]
    logits = forward(program["model"], x_val)
    accuracy = np.mean(np.argmax(logits, axis=1) == y_val)
    linear = least_squares_accuracy(program)
    assert accuracy >= (1 + linear) / 2, (accuracy, linear)
    prior = np.bincount(program["y_train"], minlength=3) / len(program["y_train"])
    constant = -np.log(prior[y_val]).mean()  # the best prediction that ignores x
    assert cross_entropy(logits, y_val) <= constant / 2


def test_the_steps_trace_as_tensorflows_and_every_batch_took_one_step(run):
    program, _ = run
    # Adam makes its slots on the first call, so that call traces twice, as TensorFlow
    # checks that a later trace creates no Variables (docs/function.md, "Variables").
    assert program["train_step"].experimental_get_tracing_count() == 2
    # The validation set's last batch is shorter (1,000 = 31 * 32 + 8): a second trace.
    assert program["test_step"].experimental_get_tracing_count() == 2
    steps = program["epochs"] * len(program["x_train"]) // program["batch_size"]
    assert int(program["optimizer"].iterations) == steps


def test_the_program_is_tensorflows_but_for_its_import():
    source = EXAMPLE.read_text()
    code = [line for line in source.splitlines() if "autograph_py" in line]
    assert code == ["import autograph_py as tf  # on TensorFlow: import tensorflow as tf"]
    assert not re.search(r"\bag\.", source)
