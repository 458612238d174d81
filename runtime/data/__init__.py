"""`ag.data`: datasets in TensorFlow's shape (runtime/data/dataset.py states the model).

Contract: importing this package equips `Dataset` with its sources (sources.py) and
transformations (transforms.py); `iter(dataset)` gives an `Iterator` (iterator.py).
The user-facing namespace is `ag.data` (`Dataset`, `INFINITE_CARDINALITY`,
`UNKNOWN_CARDINALITY`).
"""

from autograph_py.runtime.data import sources, transforms  # noqa: F401  (attach methods)
from autograph_py.runtime.data.calls import set_caller
from autograph_py.runtime.data.dataset import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    Dataset,
)
from autograph_py.runtime.data.iterator import Iterator

__all__ = ["Dataset", "Iterator", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "set_caller"]
