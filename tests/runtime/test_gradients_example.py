"""examples/train_regression.py trains with a tape inside `@ag.function`: the printed loss
falls from log(2) below a threshold, and the step is traced once."""

import importlib.util
import math
import pathlib

_PATH = pathlib.Path(__file__).resolve().parents[2] / "examples" / "train_regression.py"
_spec = importlib.util.spec_from_file_location("train_regression", _PATH)
example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(example)


def test_loss_falls_below_threshold(capsys):
    losses = example.train(steps=100, print_every=25)
    out = capsys.readouterr().out
    assert abs(losses[0] - math.log(2)) < 1e-4  # zero weights predict 0.5 everywhere
    assert losses[-1] < 0.3
    assert all(later <= earlier + 1e-6 for earlier, later in zip(losses, losses[1:]))
    assert out.splitlines()[0] == "step    0  loss 0.6931"
    assert "traced 1 time(s)" in out
