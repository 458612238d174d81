"""`ReduceOp`: how values of several replicas combine (TensorFlow's
`tf.distribute.ReduceOp`, which has these two)."""

import enum


class ReduceOp(enum.Enum):
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        """TensorFlow's conversion, for code that passes "sum" or "mean"."""
        return ReduceOp(str(aggregation).upper())


def as_reduce_op(value):
    """`value` as a ReduceOp: a ReduceOp, or its name ("SUM", "sum", "MEAN")."""
    if isinstance(value, ReduceOp):
        return value
    if isinstance(value, str) and value.upper() in ReduceOp.__members__:
        return ReduceOp[value.upper()]
    raise ValueError(f"reduce_op must be ag.distribute.ReduceOp.SUM or MEAN, got {value!r}")
