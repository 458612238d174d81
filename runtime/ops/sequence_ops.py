"""linspace (TensorFlow's name and argument order: `linspace(start, stop, num, axis=0)`).

Contract: `num` evenly spaced values from `start` to `stop`, both included (num=1 gives
`start`). `start` and `stop` are floating-point tensors of one dtype (Python numbers
become float32) and broadcast against each other; the values run along a new axis
`axis` of the broadcast shape (TF2's N-d linspace). `num` is a non-negative int, static
or a scalar tensor.
"""

import numpy as np
from autograph_py.runtime.ops import infer, int_args
from autograph_py.runtime.ops.core import binary_operands
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape


def _check_num(num):
    if num < 0:
        raise ValueError(f"num must be non-negative, got {num}")


def _linspace_kernel(start, stop, *num_input, num, axis):
    infer.require_kind(start.dtype, infer.FLOAT)
    count = int(int_args.resolve(num, num_input))
    _check_num(count)
    rank = len(np.broadcast_shapes(start.shape, stop.shape))
    return np.linspace(start, stop, count, axis=infer.normalize_axis(axis, rank, extra=1),
                       dtype=start.dtype)


def _linspace_infer(start, stop, *num_input, num, axis):
    infer.require_specs(infer.FLOAT, start, stop)
    dtype = infer.same_dtype(start, stop)
    shape = infer.broadcast_shapes(start.shape, stop.shape)
    known = int_args.known(num, num_input)
    if known is not None:
        _check_num(int(known))
    if shape.dims is None:
        return TensorShape(None), dtype
    dims = list(shape.dims)
    dims.insert(infer.normalize_axis(axis, len(dims), extra=1),
                None if known is None else int(known))
    return TensorShape(dims), dtype


register(OpDef("LinSpace", _linspace_kernel, _linspace_infer))


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (included) along a new `axis`."""
    start, stop = binary_operands(start, stop, "linspace")
    static, num_input = int_args.split(num, "linspace", "num", 0)
    return apply("LinSpace", [start, stop] + num_input, {"num": static, "axis": int(axis)},
                 op_name=name)
