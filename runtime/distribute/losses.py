"""`ag.nn.compute_average_loss`: TensorFlow's loss scaling for data-parallel training.

Contract: `compute_average_loss(per_example_loss, sample_weight=None,
global_batch_size=None)` is `reduce_sum(per_example_loss * sample_weight) /
global_batch_size`; without `global_batch_size` it is this replica's rows times
`num_replicas_in_sync` (one replica outside `strategy.run`). Each replica's loss is then
its share of the global batch's mean, so the optimizers' SUM of the replicas' gradients
is the gradient of that mean: the single-device step, exactly.
"""

from autograph_py.runtime.distribute.replica_context import current_strategy, get_replica_context
from autograph_py.runtime.ops.array_ops import cast, shape
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import divide, multiply
from autograph_py.runtime.ops.reduction_ops import reduce_sum


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    loss = convert_to_tensor(per_example_loss)
    if not loss.dtype.is_floating:
        raise TypeError(f"compute_average_loss needs a floating loss, got {loss.dtype.name}")
    if sample_weight is not None:
        loss = multiply(loss, cast(convert_to_tensor(sample_weight), loss.dtype))
    if global_batch_size is None:
        context = get_replica_context()
        strategy = context.strategy if context is not None else current_strategy()
        replicas = 1 if strategy is None else strategy.num_replicas_in_sync
        rows = loss.shape[0] if loss.shape.rank else 1
        if rows is None:
            rows = shape(loss)[0]
        global_batch_size = rows * replicas
    return divide(reduce_sum(loss), cast(convert_to_tensor(global_batch_size), loss.dtype))
