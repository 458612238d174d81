"""Loops over the elements of a tensor, written the natural way: the workloads the
vectorization pass (docs/performance.md, "Loops over tensors") runs as array operations.

Run: `python examples/vector_loops.py` prints each loop's plan source (the vectorized
lines, then the loop they leave nothing to) and its answer on 10,000 elements. The
benchmark (benchmarks/vectorize.py) and the tests (tests/runtime/plan/) use these
functions.
"""

import numpy as np

import autograph_py as ag


def count_above(x, t):
    """How many elements exceed t: a masked count."""
    n = 0
    for v in x:
        if v > t:
            n += 1
    return n


def squares_into_tensor_array(x):
    """x * x + 1 element by element into a TensorArray: a map."""
    out = ag.TensorArray(ag.float32, size=ag.shape(x)[0])
    for i in range(ag.shape(x)[0]):
        out = out.write(i, x[i] * x[i] + 1.0)
    return out.stack()


def first_above(x, t):
    """The index of the first element over t, -1 if none: a search with `break`."""
    found = -1
    for i in range(ag.shape(x)[0]):
        if x[i] > t:
            found = i
            break
    return found


def masked_max(x, mask):
    """The largest element where mask holds: a masked running max."""
    best = ag.constant(-np.inf, ag.float32)
    for i in range(ag.shape(x)[0]):
        if mask[i]:
            best = ag.maximum(best, x[i])
    return best


def running_sum_until(x, limit):
    """The sum of the first elements up to the one that takes it over limit, and how many
    those are: a `break` on a fold (its prefix sums)."""
    s = 0
    steps = 0
    for v in x:
        s += v
        steps += 1
        if s > limit:
            break
    return s, steps


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    ints = ag.constant(rng.integers(0, 1000, 10_000).astype(np.int32))
    floats = ag.constant(rng.random(10_000).astype(np.float32))
    mask = ag.constant(rng.random(10_000) < 0.3)
    for fn, args in ((count_above, (ints, ag.constant(500))),
                     (squares_into_tensor_array, (floats,)),
                     (first_above, (floats, ag.constant(np.float32(0.999)))),
                     (masked_max, (floats, mask)),
                     (running_sum_until, (ints, ag.constant(100_000)))):
        staged = ag.function(fn)
        print(f"--- {fn.__name__}: {staged(*args)}")
        print(staged.get_concrete_function(*args).code)
