"""Gradient rule of einsum (runtime/ops/special_math_ops.py); reduce_logsumexp and norm
are compositions of ops that have rules.

Contract: einsum is linear in each operand, so operand i's gradient is one more einsum:
the output gradient contracted with the other operands, giving operand i's labels.
Labels that appear in no other term (summed away inside operand i alone) are left out of
that einsum and broadcast back; '...' dims that operand i broadcast (size 1) are summed
back to 1. An operand that repeats a label (a diagonal, 'ii->i') has no rule: its
gradient raises a ValueError naming the equation (docs/limitations.md). Labels come from
`einsum_equation.parse`, so the operands' ranks must be known when '...' is used.
"""

from autograph_py.runtime.gradients.grad_ops import broadcast_like, unbroadcast
from autograph_py.runtime.ops.array_ops import expand_dims
from autograph_py.runtime.ops.einsum_equation import parse
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.registry import apply, register_gradient


def _operand_grad(equation, i, grad, inputs):
    labels = equation.inputs[i]
    if len(set(labels)) != len(labels):
        raise ValueError(f"einsum: no gradient for operand {i} of {equation.source!r}: it "
                         "repeats a label (a diagonal); take the diagonal with other ops")
    others = [equation.inputs[j] for j in range(len(inputs)) if j != i]
    present = set(equation.output).union(*others)
    kept = [label for label in labels if label in present]
    dropped = [pos for pos, label in enumerate(labels) if label not in present]
    result = apply("Einsum", [grad] + [t for j, t in enumerate(inputs) if j != i],
                   {"equation": equation.text([equation.output] + others, kept)})
    x = inputs[i]
    # Sum the broadcast ('...' of size 1) dims back, against x without its dropped axes.
    result = unbroadcast(result, reduce_sum(x, axis=dropped) if dropped else x)
    for pos in dropped:  # ascending: each axis lands where it belongs
        result = expand_dims(result, pos)
    return broadcast_like(result, x) if dropped else result


@register_gradient("Einsum")
def _einsum(op, grad):
    inputs = list(op.inputs)
    ranks = [t.shape.rank for t in inputs]
    equation = parse(op.attrs["equation"], ranks)
    return tuple(_operand_grad(equation, i, grad, inputs) for i in range(len(inputs)))
