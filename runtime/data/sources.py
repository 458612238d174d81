"""Dataset sources: `from_tensor_slices`, `from_tensors`, `range`, `zip` (attached to
`Dataset` as static methods, TensorFlow's spelling).

Contract:
- `from_tensor_slices(t)`: element i is row i of every tensor of the structure `t`
  (tensors, tuples, dicts; lists become tensors, as in TensorFlow); all must have the
  same number of rows.
- `from_tensors(t)`: one element, `t` itself.
- `range(stop)`, `range(start, stop, step=1)`: int64 elements, as TensorFlow's.
- `zip(datasets)`: tuples (or the structure given) of the datasets' elements, as long as
  the shortest.
"""

from autograph_py.runtime import dtypes, nest
from autograph_py.runtime.data import cursor as c
from autograph_py.runtime.data.dataset import Dataset, source_tensor
from autograph_py.runtime.ops.array_ops import cast, gather
from autograph_py.runtime.ops.core import convert_to_tensor
from autograph_py.runtime.tensor import Tensor


def _tensors_of(structure, convert):
    """Tuples and dicts are structure; anything else (a list of numbers too, as in
    TensorFlow) is one value, converted with `convert`."""
    if isinstance(structure, tuple):
        return type(structure)(*(_tensors_of(v, convert) for v in structure)) \
            if hasattr(structure, "_fields") else tuple(_tensors_of(v, convert)
                                                       for v in structure)
    if isinstance(structure, dict):
        return {k: _tensors_of(v, convert) for k, v in structure.items()}
    return convert(structure)


class TensorSlices(Dataset):
    def __init__(self, tensors):
        structure = _tensors_of(tensors, source_tensor)
        flat = nest.flatten(structure)
        if not flat or any(t.shape.rank == 0 for t in flat):
            raise ValueError("from_tensor_slices needs tensors with a first axis to slice, "
                             f"got {tensors!r:.80}")
        counts = {t.shape[0] for t in flat} - {None}
        if len(counts) > 1:
            raise ValueError(f"from_tensor_slices: the tensors have different numbers of "
                             f"rows {sorted(counts)}; they must all have the same")
        self._structure, self._tensors = structure, tuple(flat)

    def _nest_rebuild(self, components):
        new = super()._nest_rebuild(components)
        new._structure = nest.pack_sequence_as(self._structure, list(new._tensors))
        return new

    def _options(self):
        return (repr(nest.map_structure(lambda t: 0, self._structure)),)

    def _static_cardinality(self, parents):
        return self._tensors[0].shape[0]

    def _prepare(self, parents):
        structure = nest.pack_sequence_as(self._structure, list(self._tensors))
        return c.Cursor(c.rows(self._tensors[0]),
                        lambda i: nest.map_structure(lambda t: gather(t, i), structure),
                        lambda ix: nest.map_structure(lambda t: gather(t, ix), structure))


class FromTensors(Dataset):
    def __init__(self, tensors):
        structure = _tensors_of(tensors, convert_to_tensor)
        self._structure, self._tensors = structure, tuple(nest.flatten(structure))

    _nest_rebuild = TensorSlices._nest_rebuild
    _options = TensorSlices._options

    def _static_cardinality(self, parents):
        return 1

    def _prepare(self, parents):
        structure = nest.pack_sequence_as(self._structure, list(self._tensors))
        return c.Cursor(1, lambda i: structure, lambda ix: nest.map_structure(
            lambda t: gather(convert_to_tensor([t]), ix * 0), structure))


class Range(Dataset):
    def __init__(self, *args, dtype=dtypes.int64):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range() takes 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        if isinstance(step, int) and step == 0:
            raise ValueError("range(): step must not be zero")
        self._bounds = (start, stop, step)
        self._dtype = dtypes.as_dtype(dtype)

    def _options(self):
        return (tuple(b if not isinstance(b, Tensor) else "tensor" for b in self._bounds),
                self._dtype)

    def _static_cardinality(self, parents):
        start, stop, step = self._bounds
        if all(c.is_known(b) for b in self._bounds):
            return max(0, -(-(stop - start) // step))
        return None

    def _prepare(self, parents):
        start, stop, step = self._bounds
        length = c.maximum(0, c.floordiv(c.sub(c.add(c.sub(stop, start), step),
                                               1 if not c.is_known(step) or step > 0 else -1),
                                         step))

        def item(i):
            return cast(c.add(start, c.mul(c.index_tensor(i), step)), self._dtype)

        return c.Cursor(length, item, item)


def _datasets(structure):
    """The datasets of a (nested tuple/dict) structure of datasets, in order."""
    if isinstance(structure, Dataset):
        return [structure]
    if isinstance(structure, dict):
        return [d for k in sorted(structure, key=repr) for d in _datasets(structure[k])]
    if isinstance(structure, (tuple, list)):
        return [d for child in structure for d in _datasets(child)]
    raise TypeError(f"zip() takes a structure of datasets, got {structure!r:.80}")


def _packed(structure, values):
    """`structure` with its datasets replaced by `values` (an iterator), in order."""
    if isinstance(structure, Dataset):
        return next(values)
    if isinstance(structure, dict):
        return {k: _packed(structure[k], values) for k in sorted(structure, key=repr)}
    return tuple(_packed(child, values) for child in structure)


class Zip(Dataset):
    def __init__(self, datasets):
        self._structure = datasets
        self._parents = tuple(_datasets(datasets))

    def _nest_rebuild(self, components):
        new = super()._nest_rebuild(components)
        new._structure = _packed(self._structure, iter(new._parents))
        return new

    def _options(self):
        return (repr(_packed(self._structure, iter(range(len(self._parents))))),)

    def _static_cardinality(self, parents):
        finite = [p for p in parents if p != -1]
        if None in finite:
            return None
        return min(finite) if finite else -1

    def _prepare(self, parents):
        length = None
        for p in parents:
            length = c.min_length(length, p.length)

        def pick(method):
            return lambda i: _packed(self._structure,
                                     iter([getattr(p, method)(i) for p in parents]))

        return c.Cursor(length, pick("item"), pick("items"))


Dataset.from_tensor_slices = staticmethod(lambda tensors, name=None: TensorSlices(tensors))
Dataset.from_tensors = staticmethod(lambda tensors, name=None: FromTensors(tensors))
Dataset.range = staticmethod(lambda *args, output_type=dtypes.int64, name=None:
                             Range(*args, dtype=output_type))
Dataset.zip = staticmethod(lambda datasets, name=None: Zip(datasets))
