"""`lax` control flow built from Python closures over a carried state (a pytree).

Contract (independent of our graphs, so any staging backend can use it):
- `cond(pred, true_fn, false_fn, carry)`: `true_fn(carry)` or `false_fn(carry)`; a
  predicate known while tracing (a numpy or Python bool) runs only the branch taken, a
  traced one becomes `lax.cond`. Both branches must return the same structure, shapes
  and dtypes: else `CarryMismatch` names the position that differs.
- `while_loop(test_fn, body_fn, carry, maximum_iterations=None)`: `test_fn(carry)` is a
  scalar bool. Without a bound it is `lax.while_loop`; with a static bound it is a
  `lax.scan` of that many steps whose body runs under `lax.cond` while the test holds,
  so JAX's reverse mode differentiates through it (`lax.while_loop` has no reverse mode).
- `fori_loop(n, body_fn, carry)`: `body_fn(i, carry)` n times, a static n as `lax.scan`.
- The body must keep each leaf's shape and dtype: `CarryMismatch` names the leaf.
"""

import jax
import numpy as np
from jax import lax


class CarryMismatch(TypeError):
    """A loop body or a branch changes the shape or dtype of a carried value."""

    def __init__(self, index, before, after):
        self.index = index
        self.before, self.after = before, after
        super().__init__(f"carried value {index} is {before} before and {after} after")


def _types(tree):
    return [(tuple(np.shape(leaf)), np.dtype(jax.numpy.result_type(leaf)))
            for leaf in jax.tree_util.tree_leaves(tree)]


def check_same_types(before, after):
    """Raise CarryMismatch at the first leaf whose shape or dtype differs."""
    for i, (a, b) in enumerate(zip(_types(before), _types(after))):
        if a != b:
            raise CarryMismatch(i, _describe(a), _describe(b))


def _describe(type_):
    shape, dtype = type_
    return f"{dtype.name}{list(shape)}"


def as_arrays(tree):
    """Every leaf as a JAX array (numpy leaves become constants of the same dtype)."""
    return jax.tree_util.tree_map(jax.numpy.asarray, tree)


def cond(pred, true_fn, false_fn, carry):
    if isinstance(pred, (bool, np.bool_, np.ndarray)):
        return true_fn(carry) if bool(pred) else false_fn(carry)
    carry = as_arrays(carry)
    try:
        return lax.cond(pred, lambda c: as_arrays(true_fn(c)),
                        lambda c: as_arrays(false_fn(c)), carry)
    except TypeError:
        # Only now traced apart, to name what differs (tracing them first every time
        # would double the work at every level of nested conditionals).
        shapes = [jax.eval_shape(lambda c, f=f: as_arrays(f(c)), carry)
                  for f in (true_fn, false_fn)]
        check_same_types(*shapes)
        raise


def checked_body(body_fn):
    def body(carry):
        after = as_arrays(body_fn(carry))
        check_same_types(carry, after)
        return after

    return body


def while_loop(test_fn, body_fn, carry, maximum_iterations=None):
    carry = as_arrays(carry)
    body = checked_body(body_fn)
    if maximum_iterations is None:
        return lax.while_loop(test_fn, body, carry)

    def step(carry, _):
        return lax.cond(test_fn(carry), body, lambda c: c, carry), None

    return lax.scan(step, carry, None, length=int(maximum_iterations))[0]


def fori_loop(n, body_fn, carry):
    carry = as_arrays(carry)

    def step(carry, i):
        return checked_body(lambda c: body_fn(i, c))(carry), None

    return lax.scan(step, carry, jax.numpy.arange(int(n)))[0]
