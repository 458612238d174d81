"""`RequireBound`: the value of a variable that a staged loop binds, checked where it is
read (a variable first assigned inside the loop is unbound when the loop ran no
iteration, as in Python).

Contract: `require_bound(value, bound, message)` is `value` when the bool scalar `bound`
is true, else raises `runtime.errors.InvalidArgumentError(message)` when it runs. It is
not stateful: a graph runs it only when something reads its value. Its row says
`recreated_where_read`: a branch or loop body that reads it re-creates it from its
inputs (`FuncGraph.capture`) instead of capturing its result, so the check runs only
when that branch or body runs (Python raises only when the read happens). Gradients
pass through to `value` (runtime/gradients/array_grad.py).
"""

from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.registry import OpDef, apply, register


def _kernel(value, bound, message):
    if not bound:
        raise InvalidArgumentError(message)
    return value


def _infer(value, bound, message):
    return value.shape, value.dtype


register(OpDef("RequireBound", _kernel, _infer, recreated_where_read=True))


def require_bound(value, bound, message):
    return apply("RequireBound", [convert_to_tensor(value), convert_to_tensor(bound)],
                 {"message": message})
