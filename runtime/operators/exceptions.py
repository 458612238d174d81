"""The `assert` statement of converted code.

Contract: `assert_stmt(test, msg_thunk)` is Python's `assert test, msg` for Python values
and eager tensors (the message computed only on failure; `msg_thunk` is None when the
statement has no message). A symbolic `test` adds an `Assert` op that fails at run time
with the message (computed while tracing) and returns it, so it can be run or fetched.
"""

from autograph_py.runtime.operators.truth import truth
from autograph_py.runtime.tensor import is_symbolic


def assert_stmt(test, msg_thunk):
    if is_symbolic(test):
        from autograph_py.runtime.ops.check_ops import Assert

        message = msg_thunk() if msg_thunk is not None else "Assertion failed"
        return Assert(truth(test), [message])
    if not test:
        raise AssertionError(msg_thunk()) if msg_thunk is not None else AssertionError()
    return None
