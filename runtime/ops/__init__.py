"""The op library. Importing this package registers every op's row in the registry (the
Python operators of Tensor, which call these ops, are attached by
`runtime.tensor_operators`, above this package, which `autograph_py.runtime` imports)."""

from autograph_py.runtime.ops import (  # noqa: F401
    array_ops,
    bound_check,
    check_ops,
    collective_ops,
    core,
    creation_ops,
    indexing,
    linalg_ops,
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
