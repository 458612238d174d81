"""The lowering table: one row per op name, like the gradient rules of `registry`.

Contract:
- `@register_lowering("Add", ...)` registers `rule(ctx, op, *inputs)`; `inputs` are JAX
  values (tracers) or numpy arrays (values known while tracing: constants, static shapes),
  attrs are read from `op.attrs`. A rule returns one value, or a tuple for ops with
  several outputs (an empty tuple for ops without outputs).
- `UNLOWERABLE[name]` gives the reason an op is never compiled; `rule_for(op)` raises a
  `LoweringError` naming the op, its type and the user's file:line for those and for
  ops without a row.
- This module imports no jax; the rule modules do (`rules` imports them all).
"""

from autograph_py.runtime.rule_table import RuleTable

UNLOWERABLE = {
    "Placeholder": "a placeholder must be fed; it is an input of the compiled function, "
                   "never an op inside it",
    **dict.fromkeys(
        ("TensorArrayScatter", "TensorArrayCheckRead", "TensorArrayStack",
         "TensorArrayBufferGrad"),
        "a TensorArray's buffer grows with its writes (a shape known only when it runs) and "
        "its checks are data-dependent errors; XLA needs static shapes"),
    "ShuffleIndices": "the buffered shuffle of a dataset is a sequential draw whose length "
                      "is the dataset's, known only when it runs",
}


class LoweringError(TypeError):
    """A graph holds an op (or a use of one) that XLA cannot compile."""


_TABLE = RuleTable(LoweringError, ("jit_compile", "cannot be compiled with XLA"),
                   "lowerings", "it has no JAX lowering", UNLOWERABLE)
register_lowering = _TABLE.register
lowered_names = _TABLE.names
lowering_error = _TABLE.error
rule_for = _TABLE.rule_for
