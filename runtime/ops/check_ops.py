"""Run-time assertions, exposed as `ag.debugging` (and `ag.Assert`).

Contract: `Assert(condition, data, summarize=3)` is a stateful op: when it runs and any
element of the bool tensor `condition` is false, it raises
`runtime.errors.InvalidArgumentError` whose message is TensorFlow's `Assertion failed: `
followed by the data (tensors formatted as `ag.print` does, other values as text; data
that already start with that prefix do not get it twice: `failure_message`). Eagerly it
checks at once and returns None; in a graph it returns the Operation (stateful: a traced
function runs it in program order).
`assert_equal(x, y)`, `assert_less`, `assert_greater`, `assert_non_negative`,
`assert_positive` build the condition elementwise (broadcasting, one dtype) and report
both operands; `message` is put first.
"""

import numpy as np
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops import infer, math_ops, reduction_ops
from autograph_py.runtime.ops.core import binary_operands, convert_to_tensor
from autograph_py.runtime.ops.creation_ops import zeros_like
from autograph_py.runtime.ops.logging_ops import apply_without_outputs, render, template_of
from autograph_py.runtime.registry import OpDef, register

_FAILED = "Assertion failed"


def failure_message(rendered):
    """`Assertion failed: <rendered data>`, the prefix written once even when the data
    (a message that quotes an earlier failure, say) already start with it."""
    if rendered.lower().startswith(_FAILED.lower() + ": "):
        rendered = rendered[len(_FAILED) + 2:]
    return f"{_FAILED}: {rendered}" if rendered else _FAILED


def _assert_kernel(condition, *data, template, summarize):
    infer.require_kind(condition.dtype, infer.BOOL, "condition")
    if not np.all(condition):
        raise InvalidArgumentError(failure_message(render(template, data, " ", summarize)))
    return ()


def _assert_infer(condition, *data, template, summarize):
    infer.require_kind(condition.dtype.np_dtype, infer.BOOL, "condition")
    return []


register(OpDef("Assert", _assert_kernel, _assert_infer, num_outputs=0, stateful=True))


def Assert(condition, data, summarize=3, name=None):  # noqa: N802  (TensorFlow's name)
    """Raise InvalidArgumentError with `data` when `condition` is not all true."""
    template, tensors = template_of(data)
    return apply_without_outputs("Assert", [convert_to_tensor(condition)] + tensors,
                                 {"template": template, "summarize": int(summarize)}, name)


def _comparison_assert(compare, symbol, x, y, message, summarize, name):
    x, y = binary_operands(x, y, compare.__name__)
    condition = reduction_ops.reduce_all(compare(x, y))
    data = ([message] if message else []) + [
        f"Condition x {symbol} y did not hold element-wise: x =", x, "y =", y]
    return Assert(condition, data, summarize, name)


def _sign_assert(compare, description, x, message, summarize, name):
    x = convert_to_tensor(x)
    condition = reduction_ops.reduce_all(compare(x, zeros_like(x)))
    data = ([message] if message else []) + [f"Condition x {description} did not hold: x =", x]
    return Assert(condition, data, summarize, name)


def assert_equal(x, y, message=None, summarize=3, name=None):
    return _comparison_assert(math_ops.equal, "==", x, y, message, summarize, name)


def assert_less(x, y, message=None, summarize=3, name=None):
    return _comparison_assert(math_ops.less, "<", x, y, message, summarize, name)


def assert_greater(x, y, message=None, summarize=3, name=None):
    return _comparison_assert(math_ops.greater, ">", x, y, message, summarize, name)


def assert_non_negative(x, message=None, summarize=3, name=None):
    return _sign_assert(math_ops.greater_equal, ">= 0", x, message, summarize, name)


def assert_positive(x, message=None, summarize=3, name=None):
    return _sign_assert(math_ops.greater, "> 0", x, message, summarize, name)

