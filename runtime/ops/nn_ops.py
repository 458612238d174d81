"""Neural-network ops, exposed as `ag.nn`: relu, softmax, conv2d.

Contract:
- `relu(x)`: max(x, 0) for numeric tensors. `softmax(logits, axis=-1)`: floats only,
  computed stably (the max is subtracted first).
- `conv2d(input, filters, strides, padding)`: input NHWC, filters HWIO (height, width,
  in channels, out channels), `strides` an int or a list of 1, 2 or 4 ints (the 4-form
  must be [1, sh, sw, 1]), padding 'SAME' (output size ceil(in / stride), zero padding
  split as TensorFlow does: the extra pixel goes after) or 'VALID'. Floats only, both
  operands of one dtype. The kernel is im2col: a strided window view (no copy) reshaped
  into one matrix product.
"""

import math

import numpy as np
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops.core import binary_operands, convert_to_tensor
from autograph_py.runtime.ops.elementwise import unary
from autograph_py.runtime.registry import OpDef, apply, register
from autograph_py.runtime.shapes import TensorShape
from numpy.lib.stride_tricks import sliding_window_view

relu = unary("Relu", "relu", lambda x: np.maximum(x, 0), infer.NUMERIC, "max(x, 0) elementwise.")


def _softmax_kernel(x, axis):
    infer.require_kind(x.dtype, infer.FLOAT)
    axis = infer.normalize_axis(axis, x.ndim)
    shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return shifted / np.sum(shifted, axis=axis, keepdims=True)


def _softmax_infer(x, axis):
    infer.require_specs(infer.FLOAT, x)
    if x.shape.rank is not None:
        infer.normalize_axis(axis, x.shape.rank)
    return x.shape, x.dtype


register(OpDef("Softmax", _softmax_kernel, _softmax_infer))


def softmax(logits, axis=None, name=None):
    """exp(x) / sum(exp(x)) along `axis` (default -1, as TF 2's `axis=None`)."""
    return apply("Softmax", [convert_to_tensor(logits)],
                 {"axis": -1 if axis is None else int(axis)}, op_name=name)


# --- conv2d ---------------------------------------------------------------------------


def _output_size(size, window, stride, padding):
    if size is None:
        return None
    if padding == "SAME":
        return math.ceil(size / stride)
    return max(0, math.ceil((size - window + 1) / stride))


def _check_conv_shapes(x_dims, w_dims):
    if len(x_dims) != 4 or len(w_dims) != 4:
        raise ValueError(f"conv2d needs a rank-4 input (NHWC) and rank-4 filters (HWIO), got "
                         f"shapes {TensorShape(x_dims)} and {TensorShape(w_dims)}")
    if x_dims[3] is not None and w_dims[2] is not None and x_dims[3] != w_dims[2]:
        raise ValueError(f"input has {x_dims[3]} channels but the filters expect {w_dims[2]} "
                         f"(input {TensorShape(x_dims)}, filters {TensorShape(w_dims)})")


def _conv2d_kernel(x, w, strides, padding):
    infer.require_kind(x.dtype, infer.FLOAT)
    _check_conv_shapes(x.shape, w.shape)
    (kh, kw, _, out_channels), (sh, sw) = w.shape, strides
    if padding == "SAME":
        pads = []
        for size, window, stride in ((x.shape[1], kh, sh), (x.shape[2], kw, sw)):
            total = max((_output_size(size, window, stride, padding) - 1) * stride + window
                        - size, 0)
            pads.append((total // 2, total - total // 2))
        x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    if x.shape[1] < kh or x.shape[2] < kw:  # no complete window: an empty output
        return np.zeros((x.shape[0], _output_size(x.shape[1], kh, sh, "VALID"),
                         _output_size(x.shape[2], kw, sw, "VALID"), out_channels), x.dtype)
    # (N, H', W', C, kh, kw) view → (N, Ho, Wo, kh, kw, C) to match the HWIO filter layout.
    windows = sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::sh, ::sw]
    windows = windows.transpose(0, 1, 2, 4, 5, 3)
    n, ho, wo = windows.shape[:3]
    out = windows.reshape(n * ho * wo, -1) @ w.reshape(-1, out_channels)
    return out.reshape(n, ho, wo, out_channels)


def _conv2d_infer(x, w, strides, padding):
    infer.require_specs(infer.FLOAT, x, w)
    dtype = infer.same_dtype(x, w)
    if x.shape.dims is None or w.shape.dims is None:
        return TensorShape([x.shape[0], None, None, w.shape[3]]), dtype
    _check_conv_shapes(x.shape.dims, w.shape.dims)
    (n, h, wd, _), (kh, kw, _, out_channels) = x.shape.dims, w.shape.dims
    return TensorShape([n, _output_size(h, kh, strides[0], padding),
                        _output_size(wd, kw, strides[1], padding), out_channels]), dtype


register(OpDef("Conv2D", _conv2d_kernel, _conv2d_infer))


def _spatial_strides(strides):
    values = [int(strides)] if np.ndim(strides) == 0 else [int(s) for s in strides]
    if len(values) == 4 and values[0] == values[3] == 1:
        values = values[1:3]
    if len(values) == 1:
        values = values * 2
    if len(values) != 2 or min(values) < 1:
        raise ValueError(f"conv2d: strides must be an int or a list of 1, 2 or 4 positive ints "
                         f"(4: [1, sh, sw, 1]), got {strides!r}")
    return tuple(values)


def conv2d(input, filters, strides, padding, name=None):
    """2-D convolution (cross-correlation, like TensorFlow) of NHWC input with HWIO filters."""
    padding = str(padding).upper()
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"conv2d: padding must be 'SAME' or 'VALID', got {padding!r}")
    x, w = binary_operands(input, filters, "conv2d")
    return apply("Conv2D", [x, w], {"strides": _spatial_strides(strides), "padding": padding},
                 op_name=name)
