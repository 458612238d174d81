"""The ops of issue 12 part 4 inside staged loops and branches, in the four modes (Python
values, eager tensors, placeholders + Session, ag.function), against the same program
written with numpy; and the TensorFlow names refused on purpose."""

import numpy as np
import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode


def sorted_scans(x, n):
    x = ag.convert_to_tensor(x)
    total = ag.zeros_like(x)
    for _ in range(n):
        if ag.reduce_logsumexp(x) > 2.0:
            total += ag.cumsum(ag.sort(x, direction="DESCENDING"))
        else:
            total += ag.tile(ag.math.top_k(x, 1).values, [4])
        x = ag.clip_by_value(x * 1.5, -3.0, 3.0)
    return total


def sorted_scans_oracle(x, n):
    x = np.asarray(x, np.float32)
    total = np.zeros_like(x)
    for _ in range(n):
        top = x.max()
        if top + np.log(np.exp(x - top).sum()) > 2.0:
            total += np.cumsum(-np.sort(-x))
        else:
            total += np.tile(x.max(keepdims=True), [4])
        x = np.clip(x * np.float32(1.5), -3.0, 3.0)
    return total


def gradient_descent(logits, labels, tolerance):
    """Steps on the logits while the loss's gradient is large (a staged while)."""
    logits, labels = ag.convert_to_tensor(logits), ag.convert_to_tensor(labels)
    steps = 0
    grad = ag.ones_like(logits)
    while ag.norm(grad) > tolerance:
        probabilities = ag.exp(ag.nn.log_softmax(logits))
        grad = probabilities - ag.one_hot(labels, 3)
        logits -= 2.0 * grad
        steps += 1
    loss = ag.reduce_sum(ag.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                        logits=logits))
    return loss, steps


def gradient_descent_oracle(logits, labels, tolerance):
    logits, labels = np.asarray(logits, np.float32), np.asarray(labels)
    steps, grad = 0, np.ones_like(logits)
    while np.sqrt((grad ** 2).sum()) > tolerance:
        e = np.exp(logits - logits.max(-1, keepdims=True))
        grad = e / e.sum(-1, keepdims=True) - np.eye(3, dtype=np.float32)[labels]
        logits = logits - 2.0 * grad
        steps += 1
    log_p = logits - logits.max(-1, keepdims=True)
    log_p -= np.log(np.exp(log_p).sum(-1, keepdims=True))
    return -log_p[np.arange(len(labels)), labels].sum(), steps


def masked_products(x, threshold):
    x = ag.convert_to_tensor(x)
    count = 0
    total = 0.0
    for row in x:
        picked = ag.boolean_mask(row, row > threshold)
        if ag.size(picked) > 0:
            total += ag.einsum("i,i->", picked, picked)
            count += 1
    return total, count


def masked_products_oracle(x, threshold):
    count, total = 0, 0.0
    for row in np.asarray(x, np.float32):
        picked = row[row > threshold]
        if picked.size > 0:
            total += float(picked @ picked)
            count += 1
    return total, count


PROGRAMS = {
    "sort, cumsum, top_k, tile, logsumexp, clip in a loop with a branch":
        (sorted_scans, sorted_scans_oracle, ([0.5, -1.0, 2.0, 0.25], 4)),
    "norm, log_softmax, one_hot, cross-entropy in a while loop":
        (gradient_descent, gradient_descent_oracle, ([[2.0, -1.0, 0.5], [0.0, 0.3, -0.2]],
                                                     [1, 2], 0.05)),
    "boolean_mask and einsum over rows":
        (masked_products, masked_products_oracle,
         ([[0.5, -1.0, 2.0], [-3.0, -2.0, -1.0], [1.0, 1.5, -0.5]], 0.0)),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_program_in_every_mode(name, mode):
    fn, oracle, args = PROGRAMS[name]
    assert_same(oracle(*args), run_mode(mode, fn, args))


@pytest.mark.parametrize("name", ["SparseTensor", "RaggedTensor", "sparse", "ragged"])
def test_refused_names_say_they_are_not_supported(name):
    with pytest.raises(AttributeError, match=rf"autograph_py\.{name} is not supported: "):
        getattr(ag, name)
    assert not hasattr(ag, name)


def test_other_missing_names_are_plain_attribute_errors():
    with pytest.raises(AttributeError, match="module 'autograph_py' has no attribute 'nope'"):
        ag.nope  # noqa: B018
