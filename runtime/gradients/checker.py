"""Check gradient rules against finite differences (like `tf.test.compute_gradient`).

Contract: `fn` takes tensors and returns one tensor; `arrays` are numpy inputs (use
float64: central differences in float32 are too coarse); `grad_y` weights the output,
so each check covers a whole vector-Jacobian product.
- `numerical_gradients(fn, arrays, grad_y, delta)`: central differences of
  sum(fn(*arrays) * grad_y), one array per input.
- `tape_gradients(fn, arrays, grad_y)`: the rules run eagerly under a `GradientTape`.
- `graph_gradients(fn, arrays, grad_y, known_shapes=True)`: the rules build graph ops
  (`gradients()` on placeholders) and a Session runs them; with `known_shapes=False` the
  placeholders have unknown dims, which exercises the rules' run-time shape paths.
Gradients that do not flow come back as None.
"""

import numpy as np
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.session import Session
from autograph_py.runtime.tensor import EagerTensor


def _value(fn, arrays):
    return fn(*(EagerTensor(a) for a in arrays)).numpy()


def numerical_gradients(fn, arrays, grad_y, delta=1e-6):
    results = []
    for i, array in enumerate(arrays):
        grad = np.zeros_like(array)
        for j in np.ndindex(array.shape):
            shifted = [a.copy() for a in arrays]
            shifted[i][j] = array[j] + delta
            up = np.sum(_value(fn, shifted) * grad_y)
            shifted[i][j] = array[j] - delta
            down = np.sum(_value(fn, shifted) * grad_y)
            grad[j] = (up - down) / (2 * delta)
        results.append(grad)
    return results


def tape_gradients(fn, arrays, grad_y):
    xs = [EagerTensor(a) for a in arrays]
    with GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    grads = tape.gradient(y, xs, output_gradients=EagerTensor(np.asarray(grad_y, y.dtype.np_dtype)))
    return [None if g is None else g.numpy() for g in grads]


def graph_gradients(fn, arrays, grad_y, known_shapes=True):
    with Graph().as_default():
        xs = [placeholder(a.dtype, a.shape if known_shapes else [None] * a.ndim)
              for a in arrays]
        y = fn(*xs)
        grads = gradients(y, xs, grad_ys=constant(np.asarray(grad_y, y.dtype.np_dtype)))
        fetched = [g for g in grads if g is not None]
        with Session() as session:
            values = iter(session.run(fetched, dict(zip(xs, arrays))))
    return [None if g is None else np.asarray(next(values)) for g in grads]
