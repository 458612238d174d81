"""`DistributedDataset`: a dataset whose every global batch is split over the replicas
(what `strategy.experimental_distribute_dataset` returns).

Contract:
- Element i is the parent's element i with each tensor a `PerReplica`: the batch of B
  rows reshaped to [replicas, B / replicas, ...], so replica r reads rows
  [r * B/R, (r + 1) * B/R) of the global batch, in order (TensorFlow's split).
- Uneven batches are refused, in every mode: a batch whose row count is not a multiple
  of the number of replicas raises InvalidArgumentError naming both and the remedies
  (`batch(..., drop_remainder=True)`, or sizes that are multiples). Eagerly when the
  batch is read; in a graph when its size is known while building, else when it runs
  (an Assert). docs/distribute.md, "Uneven batches", says why: every replica runs one
  compiled program of one shape, and padding would change what a user's loss sums.
- It is a dataset node: `for batch in dist_dataset` works eagerly (Python iteration)
  and inside `ag.function` (the staged `for` over a dataset, the pipeline in the loop).
  Its elements cannot be batched again.
"""

from autograph_py.runtime import nest
from autograph_py.runtime.data import cursor as c
from autograph_py.runtime.data.transforms import _Transform
from autograph_py.runtime.distribute.values import PerReplica
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.ops.array_ops import concat, reshape, shape
from autograph_py.runtime.ops.check_ops import Assert
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import equal, mod


def uneven_message(rows, replicas):
    return (f"a global batch of {rows} rows does not split evenly over {replicas} replicas: "
            f"a distributed dataset needs every batch's size to be a multiple of "
            f"num_replicas_in_sync ({replicas}); batch with drop_remainder=True, or choose "
            "a batch size and a dataset length that are multiples of it "
            "(docs/distribute.md, 'Uneven batches')")


def split(tensor, replicas):
    """`tensor` (a global batch) as a PerReplica of `replicas` equal shards."""
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank == 0:
        raise ValueError("a distributed dataset splits batches along their first axis; "
                         f"this element is a scalar ({tensor!r:.60}): batch the dataset first")
    rows = c.rows(tensor)
    if c.is_known(rows):
        if rows % replicas:
            raise InvalidArgumentError(uneven_message(rows, replicas))
        dims = tensor.shape.dims[1:]
        if all(d is not None for d in dims):
            return PerReplica(reshape(tensor, [replicas, rows // replicas, *dims]))
    else:
        Assert(equal(mod(rows, replicas), 0),
               [uneven_message("B", replicas).replace("of B rows", "of"), rows, "rows"])
    new_shape = concat([convert_to_tensor([replicas, -1]), shape(tensor)[1:]], 0)
    return PerReplica(reshape(tensor, new_shape))


class DistributedDataset(_Transform):
    def _prepare(self, parents):
        parent, (replicas,) = parents[0], self._opts

        def item(i):
            return nest.map_structure(lambda t: split(t, replicas), parent.item(i))

        def items(_indices):
            raise TypeError("the batches of a distributed dataset cannot be batched again: "
                            "batch the dataset before experimental_distribute_dataset")

        return c.Cursor(parent.length, item, items)

    @property
    def num_replicas_in_sync(self):
        return self._opts[0]
