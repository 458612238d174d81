"""`Dataset`: the base of every dataset, and what reads one.

Contract:
- A dataset is a tree of nodes: sources (runtime/data/sources.py) and transformations
  of parent datasets (runtime/data/transforms.py, which attach `map`, `batch`, ... to
  this class). A node holds its own tensors (`_tensors`) and Python options.
- Reading: `_cursor()` prepares the tree in the graph being built (or eagerly) and gives
  a `Cursor` (runtime/data/cursor.py): the length and the element at an index. Iterating
  in Python (`for x in ds`, `iter(ds)`) walks a cursor eagerly; a staged `for` over a
  dataset walks it with the loop's index (operators/iterables.py), so the whole pipeline
  runs inside the loop.
- A dataset is a composite of `nest` (components: every node's tensors), so it crosses
  `ag.function` boundaries as its tensors: an argument's tensors are fed, and the trace
  is keyed on `_trace_signature()` (the pipeline) and the tensors' specs, where a
  source's row count is left unknown (a dataset of the same element_spec and pipeline but
  another length reuses the trace).
- `element_spec` is the structure of `TensorSpec`s of an element, found by tracing one
  element into a throwaway graph; `cardinality()` is an int64 tensor:
  `INFINITE_CARDINALITY` (-1) after an endless `repeat`, `UNKNOWN_CARDINALITY` (-2)
  after `filter`, as in TensorFlow.
- `reduce(initial_state, reduce_func)` folds the elements (a `while_loop` in a graph).
"""

import copy

from autograph_py.runtime import context, dtypes, nest
from autograph_py.runtime.control_flow import while_loop
from autograph_py.runtime.data import calls
from autograph_py.runtime.data.cursor import is_known
from autograph_py.runtime.data.iterator import Iterator
from autograph_py.runtime.graph import FuncGraph, make_placeholder
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.ops.math_ops import less
from autograph_py.runtime.tensor import EagerTensor, is_symbolic
from autograph_py.runtime.tensor_spec import TensorSpec

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class Dataset:
    _parents = ()
    _tensors = ()

    # --- what each node defines -------------------------------------------------------

    def _prepare(self, parents):
        """The node's Cursor, given its parents' cursors."""
        raise NotImplementedError

    def _options(self):
        """The node's Python options, hashable (functions by identity)."""
        return ()

    def _static_cardinality(self, parents):
        """The number of elements from the parents' (an int, or None when it is only
        known at run time); nodes that change it override this."""
        return parents[0] if parents else None

    # --- reading ----------------------------------------------------------------------

    def _cursor(self):
        return self._prepare([p._cursor() for p in self._parents])

    def __iter__(self):
        return Iterator(self)

    def as_numpy_iterator(self):
        if context.current_graph() is not None:
            raise TypeError("as_numpy_iterator() is only available eagerly, not while a "
                            "graph is built (iterate the dataset instead)")
        for element in self:
            yield nest.map_structure(lambda t: t.numpy(), element)

    @property
    def element_spec(self):
        probe = FuncGraph("element_spec", context.current_graph())
        with probe.as_default():
            # Any element: an index known while building would let shape inference see
            # the first one's shape (a batch with a remainder has no fixed row count)
            element = self._cursor().item(make_placeholder(probe, dtypes.int32, [], "index"))
        return nest.map_structure(
            lambda t: TensorSpec(convert_to_tensor(t).shape, convert_to_tensor(t).dtype),
            element)

    def cardinality(self):
        count = self._cardinality()
        return convert_to_tensor(count if count is not None else
                                 self._cursor().length, dtypes.int64)

    def _cardinality(self):
        """The cardinality as a Python int when it is known while building, else None."""
        parents = [p._cardinality() for p in self._parents]
        if UNKNOWN_CARDINALITY in parents:
            return UNKNOWN_CARDINALITY
        return self._static_cardinality(parents)

    def reduce(self, initial_state, reduce_func, name=None):
        cursor = self._cursor()
        if cursor.length is None:
            raise ValueError("reduce() of an infinite dataset never ends; take() a part of it")
        state = nest.map_structure(convert_to_tensor, initial_state)
        if is_known(cursor.length) and context.current_graph() is None:
            for i in range(cursor.length):
                state = calls.call(reduce_func, (state, cursor.item(i)))
            return state

        def body(i, state):
            return i + 1, calls.call(reduce_func, (state, cursor.item(i)))

        return while_loop(lambda i, state: less(i, cursor.length), body,
                          [convert_to_tensor(0), state])[1]

    # --- composite protocol (runtime/nest.py) -----------------------------------------

    def _nest_components(self):
        return list(self._tensors) + [c for p in self._parents for c in p._nest_components()]

    def _nest_rebuild(self, components):
        components = list(components)
        new = copy.copy(self)
        new._tensors = tuple(components[:len(self._tensors)])
        start, parents = len(self._tensors), []
        for parent in self._parents:
            count = len(parent._nest_components())
            parents.append(parent._nest_rebuild(components[start:start + count]))
            start += count
        new._parents = tuple(parents)
        return new

    def _trace_signature(self):
        return (type(self).__name__, self._options(),
                tuple(p._trace_signature() for p in self._parents))

    def __len__(self):
        count = self._cardinality()
        if count is None or count < 0:
            raise TypeError("the length of this dataset is not known while building "
                            "(it is endless, filtered, or its length is a tensor); use "
                            "cardinality()")
        return count

    def _staged_cursor(self):
        return self._cursor(), 0

    def _consumed(self, count):
        """A staged loop read `count` elements: a dataset (unlike an iterator) keeps no
        position."""

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self.element_spec}>"


class SourceTensor(EagerTensor):
    """A dataset source's eager tensor with the spec it is traced with (`ag.function`
    keys and placeholders read `.spec`): its row count unknown."""

    __slots__ = ("spec",)

    def __init__(self, tensor):
        super().__init__(tensor._value, tensor.dtype)
        self.spec = TensorSpec([None, *tensor.shape.dims[1:]], tensor.dtype)


def source_tensor(value):
    """`value` as a source's tensor: symbolic tensors stay, eager ones with rows become
    SourceTensors."""
    tensor = convert_to_tensor(value)
    if is_symbolic(tensor) or not tensor.shape.rank:
        return tensor
    return SourceTensor(tensor)
