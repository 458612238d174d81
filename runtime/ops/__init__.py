"""The op library. Importing this package registers every op's row in the registry and
attaches the Python operators to Tensor (they call these ops)."""

from autograph_py.runtime import tensor_operators  # noqa: F401
from autograph_py.runtime.ops import (  # noqa: F401
    array_ops,
    bound_check,
    check_ops,
    core,
    creation_ops,
    indexing,
    logging_ops,
    manipulation_ops,
    math_ops,
    nn_loss_ops,
    nn_ops,
    random_ops,
    reduction_ops,
    scan_ops,
    sequence_ops,
    sort_ops,
    special_math_ops,
    tensor_array_ops,
    unary_math_ops,
)
