"""Gradient rules, one module per op family; importing this package registers them all.

Contract: each rule is registered on its op's registry row with
`@register_gradient("OpName")` and has the signature
`rule(op, *output_grads) -> tuple of input gradients` (None where no gradient flows),
where `op` is a graph Operation or an eager tape record (`.inputs`, `.outputs`,
`.attrs`). Rules are written with the user-facing ops, so one rule serves eager tapes,
graph `gradients()` and tapes inside traced functions, and is itself differentiable.
Gradients of broadcasting ops are reduced back to each input's shape (`unbroadcast`).
"""

from autograph_py.runtime.gradients import (  # noqa: F401  (importing registers the rules)
    array_grad,
    collective_grad,
    control_flow_grad,
    function_call,
    grad_ops,
    linalg_grad,
    manipulation_grad,
    math_grad,
    nn_grad,
    nn_loss_grad,
    reduction_grad,
    scan_grad,
    sequence_grad,
    sort_grad,
    special_math_grad,
    tensor_array_grad,
    unary_math_grad,
)
