"""The ops behind `TensorArray` (runtime/tensor_array.py): a buffer and a written mask.

Contract: a TensorArray's value is two tensors, `buffer` (its elements stacked, shape
`(rows, *element_shape)`) and `written` (bool, shape `(size,)`: which indices hold an
element). Before the first write `buffer` has no rows (and, when the element shape is not
declared, shape `(0,)`); a write gives it `size` rows, unwritten ones zero.
- `TensorArrayScatter(buffer, written, indices, values)`: the array with `values[k]` at
  `indices[k]`; grows `size` when `dynamic_size`, else an index past `size` is an error;
  an element whose shape differs from the others' (or the declared `element_shape`) is
  an error; the same index twice in one scatter is an error. Its kernel's `in_order`
  (`scatter_range(buffer, written, start, values, ...)`) is the same result, without an
  index array, when the writes fill a never-written array in order, else None.
- `TensorArrayCheckRead(written, indices)`: `indices`, after checking each is in range
  and written (the read itself is a `gather` of the buffer, so its gradient is gather's).
- `TensorArrayStack(buffer, written)`: the `(size, *element_shape)` tensor; with no
  element written it needs a fully known `element_shape` (an empty array whose element
  rank is unknown stacks to `(0,)`).
- `TensorArrayBufferGrad(grad, buffer, indices)`: `grad` cut to `buffer`'s shape with the
  rows at `indices` zeroed (what reaches a buffer that a scatter overwrote there).
Errors are raised by the kernels, so a graph names the user's line that built the op.
"""

import numpy as np
from autograph_py.runtime import dtypes
from autograph_py.runtime.registry import OpDef, register
from autograph_py.runtime.shapes import TensorShape


def _elements(shape):
    return "<unknown>" if shape is None else str(tuple(shape))


def _check_indices(indices, size, what):
    for i in indices:
        if i < 0 or i >= size:
            raise IndexError(f"TensorArray {what} index {i} is out of range: the array has "
                             f"size {size}")


def _positions(indices):
    """Where a scatter writes: a slice when the indices are consecutive (a vectorized
    loop's writes, at numpy's speed), else the indices; an index given twice is an
    error."""
    if indices.size < 2:
        return indices
    steps = np.diff(indices)
    if (steps == 1).all():
        return slice(int(indices[0]), int(indices[-1]) + 1)
    if not ((steps > 0).all() or (steps < 0).all()) and \
            np.unique(indices).size != indices.size:
        raise ValueError(f"TensorArray scatter: an index appears twice in {indices.tolist()}")
    return indices


def _scatter_kernel(buffer, written, indices, values, dynamic_size, element_shape):
    indices = np.asarray(indices).reshape(-1)
    if values.shape[:1] != indices.shape:
        raise ValueError(f"TensorArray scatter: {indices.size} indices but "
                         f"{values.shape[0] if values.ndim else 0} values")
    positions = _positions(indices)
    size = written.shape[0]
    needed = int(indices.max()) + 1 if indices.size else 0
    if needed > size and not dynamic_size:
        raise IndexError(f"TensorArray write at index {needed - 1} is past its size {size}; "
                         "create it with dynamic_size=True to let it grow")
    if (indices < 0).any():
        raise IndexError(f"TensorArray write at negative index {int(indices.min())}")
    element = values.shape[1:]
    if not _fits(element_shape, element):
        raise ValueError(f"TensorArray element of shape {element} does not match its "
                         f"element_shape {_elements(element_shape)}")
    if buffer.shape[0] and buffer.shape[1:] != element:
        raise ValueError(f"TensorArray element of shape {element} differs from the shape "
                         f"{buffer.shape[1:]} of the elements written before")
    rows = max(size, needed)
    if isinstance(positions, slice) and positions.start == 0 and positions.stop == rows:
        # every row written at once, in order (a vectorized loop's map): nothing of the
        # old buffer or mask is left
        return np.array(values, dtype=buffer.dtype), _all_written(rows)
    out = np.zeros((rows, *element), buffer.dtype)
    out[:buffer.shape[0]] = buffer.reshape((buffer.shape[0], *element))
    out[positions] = values
    mask = np.zeros(rows, bool)
    mask[:size] = written
    mask[positions] = True
    return out, mask


def scatter_range(buffer, written, start, values, dynamic_size, element_shape):
    """TensorArrayScatter's result for the indices start, start + 1, ... when they write
    every element of an array no element of which was written before (a vectorized loop's
    map: the rows themselves, no index array), else None (the kernel decides)."""
    del dynamic_size  # (growth is past `size`: not this case)
    size = written.shape[0]
    if start or values.ndim == 0 or values.shape[0] != size or buffer.shape[0]:
        return None
    element = values.shape[1:]
    if element_shape != element and not _fits(element_shape, element):
        return None
    # (a kernel's fresh array is the buffer as is; a view, e.g. of an input, is copied)
    rows = values if values.base is None and values.dtype == buffer.dtype else \
        np.array(values, dtype=buffer.dtype)
    return rows, _all_written(size)


_EVERY = [np.ones(0, bool)]  # a read-only row of Trues, grown to the largest size asked
_WRITTEN = {}  # size -> its view of _EVERY[0] (the sizes a program's arrays have)


def _all_written(size):
    """A written mask of `size` Trues: a read-only view (np.ones of a bool array costs
    µs, a view a fraction; no kernel changes its inputs)."""
    mask = _WRITTEN.get(size)
    if mask is not None:
        return mask
    every = _EVERY[0]
    if every.shape[0] < size:
        every = np.ones(max(size, 2 * every.shape[0]), bool)
        every.flags.writeable = False
        _EVERY[0] = every
        _WRITTEN.clear()  # (views of the smaller row would keep it alive)
    if len(_WRITTEN) >= 64:
        _WRITTEN.clear()
    mask = _WRITTEN[size] = every[:size]
    return mask


def _fits(element_shape, element):
    """`TensorShape(element_shape).is_compatible_with(element)`, without the objects."""
    if element_shape is None or element_shape == element:
        return True
    if len(element_shape) != len(element):
        return False
    for declared, actual in zip(element_shape, element):
        if declared is not None and declared != actual:
            return False
    return True


_scatter_kernel.in_order = scatter_range  # (what a vectorized loop calls first)


def _merged(a, b):
    """The dims two compatible shapes agree on, the known one where only one is known."""
    if a.rank is None:
        return b
    if b.rank is None:
        return a
    return TensorShape(x if x is not None else y for x, y in zip(a.dims, b.dims))


def _buffer_element_shape(buffer):
    """The element shape a buffer's static shape tells (unknown while it is `(0,)`)."""
    if buffer.shape.rank is None or buffer.shape.rank == 1 and buffer.shape[0] == 0:
        return TensorShape(None)  # (0,): no element yet, or scalars, it cannot tell
    return buffer.shape[1:]


def _rows_of(rows, element):
    return TensorShape(None if element.rank is None else (rows, *element.dims))


def _scatter_infer(buffer, written, indices, values, dynamic_size, element_shape):
    element = _merged(_merged(values.shape[1:], _buffer_element_shape(buffer)),
                      TensorShape(element_shape))
    rows = None if dynamic_size else written.shape[0]
    return [(_rows_of(rows, element), buffer.dtype),
            (TensorShape([rows]), dtypes.bool_)]


def _check_read_kernel(written, indices):
    flat = np.asarray(indices).reshape(-1)
    _check_indices(flat, written.shape[0], "read")
    for i in flat:
        if not written[i]:
            raise IndexError(f"TensorArray read at index {i}, which was never written "
                             f"(written: {np.flatnonzero(written).tolist()})")
    return indices


def _stack_kernel(buffer, written, element_shape):
    size = written.shape[0]
    # An empty array's buffer is (0,) until a write runs: with a rank known (declared, or
    # learnt from a write traced in a loop that ran no iteration) it stacks to
    # (0, *element_shape), TensorFlow's rule; with no rank, to (0,), as TF's eager arrays.
    if buffer.shape[0] == size and (size or buffer.ndim > 1 or element_shape is None):
        return buffer
    if element_shape is None or None in element_shape:
        raise ValueError("TensorArray stack: no element was written and its element_shape "
                         f"{_elements(element_shape)} is not fully known, so the shape of "
                         "the result is unknown; pass element_shape= to ag.TensorArray")
    return np.zeros((size, *element_shape), buffer.dtype)


def _stack_infer(buffer, written, element_shape):
    element = _merged(_buffer_element_shape(buffer), TensorShape(element_shape))
    return _rows_of(written.shape[0], element), buffer.dtype


def _buffer_grad_kernel(grad, buffer, indices):
    rows = buffer.shape[0]
    if rows == 0:
        return np.zeros(buffer.shape, grad.dtype)
    out = np.array(grad[:rows])
    indices = np.asarray(indices).reshape(-1)
    out[indices[indices < rows]] = 0  # rows a dynamic array grew into were not there
    return out


register(OpDef("TensorArrayScatter", _scatter_kernel, _scatter_infer, num_outputs=2))
register(OpDef("TensorArrayCheckRead", _check_read_kernel,
               lambda written, indices: (indices.shape, indices.dtype)))
register(OpDef("TensorArrayStack", _stack_kernel, _stack_infer))
register(OpDef("TensorArrayBufferGrad", _buffer_grad_kernel,
               lambda grad, buffer, indices: (buffer.shape, grad.dtype)))
