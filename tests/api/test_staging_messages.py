"""The exact texts of the errors that staging an `if`, `while` or `for` raises, for both
staging backends: our graphs (`ag.function` on a tensor) and JAX tracers (`jax.jit` of
`ag.to_graph`). They pin the messages while the staging of the two backends is shared
(issue 29: runtime/operators/staging.py): each text stays the backend's own.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import autograph_py as ag

SCALAR = np.float32(3.0)
ROWS = np.arange(1, 4, dtype=np.float32)


def if_defines_in_one_branch(x):
    if x > 0:
        y = x
    return y


def if_changes_structure(x):
    y = (x, x)
    if x > 0:
        y = x
    return y


def if_resizes_a_list(x):
    ys = []
    if x > 0:
        ys.append(x)
    return x


def if_changes_dtype(x):
    y = 0
    if x > 0:
        y = x * 1.0
    return y


def if_replaces_none(x):
    s = None
    if x > 0:
        s = "a"
    return x, s


def while_replaces_none(x):
    s = None
    while x > 0:
        x = x - 1
        s = "a"
    return x, s


def while_changes_dtype(x):
    n = 0
    while x > 0:
        x = x - 1
        n = x * 0.5
    return n


def for_changes_dtype(x):
    n = 0
    for v in x:
        n = v * 0.5
    return n


def for_with_break_changes_dtype(x):
    n = 0
    for v in x:
        if v > 2:
            break
        n = v * 0.5
    return n


def while_changes_structure(x):
    t = (x,)
    while x > 0:
        x = x - 1
        t = (x, x)
    return t


def while_makes_none(x):
    y = x
    while x > 0:
        x = x - 1
        y = None
    return y


def while_reads_before_assigning(x):
    while x > 0:
        x = x - step  # noqa: F821 (read before the loop assigns it)
        step = 1.0  # noqa: F841
    return x


def while_resizes_a_list(x):
    ys = []
    while x > 0:
        x = x - 1
        ys.append(x)
    return x


def while_vector_condition(x):
    while x > 0:
        x = x - 1
    return x


def for_with_break_changes_dtype_in_the_loop(x):
    n = 0
    for v in x:
        n = v * 0.5
        if v > 2:
            break
    return n


def for_range_reads_before_assigning(x):
    total = 0.0
    for _ in range(int(x)):
        total = total + step  # noqa: F821 (read before the loop assigns it)
        step = 1.0  # noqa: F841
    return total


def for_range_changes_dtype(x):
    n = 0
    for _ in range(int(x)):
        n = x * 0.5
    return n


def _run(mode, fn, arg):
    if mode == "graph":
        return ag.function(fn)(ag.constant(arg))
    return jax.jit(ag.to_graph(fn))(jnp.asarray(arg))


@pytest.mark.parametrize("fn, arg, mode, error, text", [
    (if_defines_in_one_branch, SCALAR, 'graph', ValueError,
     "'y' is defined in only one branch of the `if` and used after it; the condition is "
     "a tensor, so both branches are built into the graph and both must give 'y' a value "
     '(or define it before the `if`)'),
    (if_defines_in_one_branch, SCALAR, 'jax', ValueError,
     "'y' is defined in only one branch of the `if` and used after it; the condition is "
     "a JAX tracer, so both branches are traced into one lax.cond and both must give 'y' "
     'a value (or define it before the `if`)'),
    (if_changes_structure, SCALAR, 'graph', ValueError,
     "'y' has a different structure in the two branches of the `if`: y: one is a nested "
     'structure (tuple) and the other is not (SymbolicTensor)'),
    (if_changes_structure, SCALAR, 'jax', ValueError,
     "'y' has a different structure in the two branches of the `if`: y: one is a nested "
     'structure (tuple) and the other is not (DynamicJaxprTracer)'),
    (if_resizes_a_list, SCALAR, 'jax', ValueError,
     "'ys' is a Python list that one branch of the `if` resizes; under a JAX trace both "
     "branches are traced into one lax.cond, whose results have static shapes, so 'ys' "
     'must have the same length after both (append in both branches, or build an array '
     'with jnp.where)'),
    (if_changes_dtype, SCALAR, 'jax', TypeError,
     "'y' is a float32 scalar after one branch of the `if` and an int32 scalar after the "
     'other; under a JAX trace both branches of a lax.cond must give it the same dtype '
     'and shape (cast it, e.g. jnp.float32(...), or write 0.0 for a float)'),
    (if_replaces_none, SCALAR, 'graph', ValueError,
     "cond: 's' is None in the false branch but a value in the other; give it a value in "
     'both branches'),
    (if_replaces_none, SCALAR, 'jax', TypeError,
     "'s' is a str after one branch of the `if` and None after the other; a JAX-staged "
     '`if` can only give different values to variables that hold arrays or numbers'),
    (while_replaces_none, SCALAR, 'graph', TypeError,
     "'s' is None before the loop and a str after an iteration; a staged loop can only "
     'change variables that hold a tensor or a number before it'),
    (while_replaces_none, SCALAR, 'jax', TypeError,
     "'s' is None before the loop and a str after an iteration; a loop staged with lax "
     'can only change variables that hold an array or a number before it'),
    (while_changes_dtype, SCALAR, 'graph', TypeError,
     "'n' has dtype int32 before the loop but float32 after an iteration; a variable of "
     'a staged loop must keep its dtype (cast it with ag.cast)'),
    (while_changes_dtype, SCALAR, 'jax', TypeError,
     "'n' is an int32 scalar before the loop and a float32 scalar after an iteration; a "
     "loop staged with lax must keep each variable's dtype and shape (cast it, e.g. "
     'write 0.0 for a float, or give it its final shape before the loop)'),
    (for_changes_dtype, ROWS, 'graph', TypeError,
     "'n' has dtype int32 before the loop but float32 after an iteration; a variable of "
     'a staged loop must keep its dtype (cast it with ag.cast)'),
    (for_changes_dtype, ROWS, 'jax', TypeError,
     "'n' is an int32 scalar before the loop and a float32 scalar after an iteration; a "
     "loop staged with lax must keep each variable's dtype and shape (cast it, e.g. "
     'write 0.0 for a float, or give it its final shape before the loop)'),
    (for_with_break_changes_dtype, ROWS, 'graph', TypeError,
     "cond: 'n' has dtype int32 in the true branch but float32 in the false branch; both "
     'branches must give it the same dtype'),
    (for_with_break_changes_dtype, ROWS, 'jax', TypeError,
     "'n' is an int32 scalar after one branch of the `if` and a float32 scalar after the "
     'other; under a JAX trace both branches of a lax.cond must give it the same dtype '
     'and shape (cast it, e.g. jnp.float32(...), or write 0.0 for a float)'),
    (while_changes_structure, SCALAR, 'graph', ValueError,
     "'t' has a different structure after a loop iteration: t: lengths differ (1 vs 2)"),
    (while_changes_structure, SCALAR, 'jax', ValueError,
     "'t' has a different structure after a loop iteration: t: lengths differ (1 vs 2)"),
    (while_makes_none, SCALAR, 'graph', TypeError,
     "loop variable 'y' is None, which cannot become a tensor: cannot convert None to a "
     'tensor: mixed or unsupported element types'),
    (while_makes_none, SCALAR, 'jax', TypeError,
     "'y' is None after a loop iteration but an array or number before the loop"),
    (while_reads_before_assigning, SCALAR, 'graph', ValueError,
     "'step' must be defined before the loop: the loop is staged (its condition is a "
     "tensor) and reads 'step' before assigning it"),
    (while_reads_before_assigning, SCALAR, 'jax', ValueError,
     "'step' must be defined before the loop: the loop is staged with lax (its condition "
     "is a JAX tracer) and reads 'step' before assigning it"),
    (while_resizes_a_list, SCALAR, 'jax', ValueError,
     "'ys' is a Python list that the loop resizes; the loop is staged with lax (its "
     'condition or iterable is a JAX tracer) and JAX arrays have static shapes: make '
     "'ys' an array of its final size before the loop (jnp.zeros(n)) and set items with "
     'ys = ys.at[i].set(value)'),
    (while_vector_condition, ROWS, 'graph', ValueError,
     "a staged loop's condition: the condition must be a scalar, got a tensor of shape "
     '(3,) (Tensor("Greater:0", shape=(3,), dtype=bool)); reduce it with ag.reduce_all / '
     'ag.reduce_any'),
    (while_vector_condition, ROWS, 'jax', ValueError,
     "a loop's condition must be a scalar, got a bool array of shape (3,); reduce it "
     'with jnp.all or jnp.any'),
    (for_with_break_changes_dtype_in_the_loop, ROWS, 'graph', TypeError,
     "'n' has dtype int32 before the loop but float32 after an iteration; a variable of "
     'a staged loop must keep its dtype (cast it with ag.cast)'),
    (for_with_break_changes_dtype_in_the_loop, ROWS, 'jax', TypeError,
     "'n' is an int32 scalar before the loop and a float32 scalar after an iteration; a "
     "loop staged with lax must keep each variable's dtype and shape (cast it, e.g. "
     'write 0.0 for a float, or give it its final shape before the loop)'),
    (for_range_reads_before_assigning, SCALAR, 'graph', ValueError,
     "'step' must be defined before the loop: the loop is staged (its condition is a "
     "tensor) and reads 'step' before assigning it"),
    (for_range_reads_before_assigning, SCALAR, 'jax', ValueError,
     "'step' must be defined before the loop: the loop is staged with lax (its condition "
     "is a JAX tracer) and reads 'step' before assigning it"),
    (for_range_changes_dtype, SCALAR, 'graph', TypeError,
     "'n' has dtype int32 before the loop but float32 after an iteration; a variable of "
     'a staged loop must keep its dtype (cast it with ag.cast)'),
    (for_range_changes_dtype, SCALAR, 'jax', TypeError,
     "'n' is an int32 scalar before the loop and a float32 scalar after an iteration; a "
     "loop staged with lax must keep each variable's dtype and shape (cast it, e.g. "
     'write 0.0 for a float, or give it its final shape before the loop)'),
])
def test_the_message_is_the_backends_own(fn, arg, mode, error, text):
    with pytest.raises(error) as info:
        _run(mode, fn, arg)
    assert str(info.value) == text
