"""The `assert` statement of converted code.

Contract: `assert_stmt(test, msg_thunk, source=None)` is Python's `assert test, msg` for
Python values and eager tensors (the message computed only on failure; `msg_thunk` is
None when the statement has no message). A symbolic `test` adds an `Assert` op that fails
at run time with the message (computed while tracing) followed by the test's `source`
(`Assertion failed: x must be positive (x > 0)`, TensorFlow's words; the source alone
without a message) and returns it, so it can be run or fetched.
A tensor `test`, eager or symbolic, must be a scalar (TensorFlow's rule): anything else
is a ValueError while tracing or running, the same in every mode.
"""

from autograph_py.runtime.control_flow import check_predicate
from autograph_py.runtime.operators.backends import backend_for
from autograph_py.runtime.operators.truth import as_condition
from autograph_py.runtime.tensor import Tensor


def assert_stmt(test, msg_thunk, source=None):
    test = as_condition(test)
    if isinstance(test, Tensor) and test.shape.rank != 0:
        check_predicate(test, "assert")
    backend = backend_for(test)
    if backend is not None:
        message = msg_thunk() if msg_thunk is not None else None
        if source:
            message = source if message is None else f"{message} ({source})"
        return backend.assert_(test, message if message is not None else "condition is false")
    if not test:
        raise AssertionError(msg_thunk()) if msg_thunk is not None else AssertionError()
    return None
