"""Gradient rules of pad, tile and boolean_mask (runtime/ops/manipulation_ops.py), and the
ops that carry their gradients back: `PadGrad`, `TileGrad`, `BooleanMaskGrad`.

Contract: each forward op is linear in its tensor input, so its gradient is the adjoint
map, an op taking the forward input as `like` (its shape is known at run time):
- `PadGrad(grad, like, *paddings)`: every output element of pad came from one input
  element (CONSTANT mode: or from the fill value); the gradient adds up, per input
  element, the gradients of the outputs that copied it (REFLECT/SYMMETRIC copy an
  element several times). One mechanism for all modes: the input's flat indices are
  padded with the same mode, and `bincount` sums by index.
- `TileGrad(grad, like, *multiples)`: the sum over the copies.
- `BooleanMaskGrad(grad, like, mask)`: `grad` scattered into zeros where `mask` is true.
Each adjoint is linear too and its own gradient is the forward op, so second
derivatives work. pad's `constant_values`, the paddings, multiples and the mask get no
gradient (as in TensorFlow).
"""

import numpy as np
from autograph_py.runtime.ops import int_args
from autograph_py.runtime.ops.creation_ops import zeros
from autograph_py.runtime.ops.manipulation_ops import (
    PAD_MODES,
    boolean_mask,
    mask_index,
    masked_axes,
)
from autograph_py.runtime.registry import OpDef, apply, register, register_gradient


def _like_infer(grad, like, *rest, **attrs):
    return like.shape, grad.dtype


# --- pad ------------------------------------------------------------------------------


def _pad_grad_kernel(grad, like, *paddings_input, paddings, mode):
    pads = int_args.resolve(paddings, paddings_input)
    flat_index = np.arange(like.size).reshape(like.shape)
    if mode == "CONSTANT":
        source = np.pad(flat_index, pads, constant_values=-1)  # -1: the fill value
    else:
        source = np.pad(flat_index, pads, mode=PAD_MODES[mode])
    copied = source >= 0
    summed = np.bincount(source[copied], weights=grad[copied], minlength=like.size)
    return summed.astype(grad.dtype).reshape(like.shape)


register(OpDef("PadGrad", _pad_grad_kernel, _like_infer))


def _int_inputs(op, first):
    """The op's integer tensor inputs (paddings, multiples), from position `first` on."""
    return list(op.inputs[first:])


@register_gradient("PadV2")
def _pad(op, grad):
    x = op.inputs[0]
    paddings = _int_inputs(op, 2)
    dx = apply("PadGrad", [grad, x] + paddings, dict(op.attrs))
    return (dx, None) + (None,) * len(paddings)


@register_gradient("PadGrad")
def _pad_grad(op, grad):
    paddings = _int_inputs(op, 2)
    fill = zeros([], grad.dtype)
    return (apply("PadV2", [grad, fill] + paddings, dict(op.attrs)), None) + \
        (None,) * len(paddings)


# --- tile -----------------------------------------------------------------------------


def _tile_grad_kernel(grad, like, *multiples_input, multiples):
    reps = int_args.resolve(multiples, multiples_input)
    # grad's axis i is reps[i] copies of like's axis i: split each axis in two, sum copies.
    split = [n for pair in zip(reps, like.shape) for n in pair]
    return grad.reshape(split).sum(axis=tuple(range(0, 2 * like.ndim, 2)), dtype=grad.dtype)


register(OpDef("TileGrad", _tile_grad_kernel, _like_infer))


@register_gradient("Tile")
def _tile(op, grad):
    multiples = _int_inputs(op, 1)
    return (apply("TileGrad", [grad, op.inputs[0]] + multiples, dict(op.attrs)),) + \
        (None,) * len(multiples)


@register_gradient("TileGrad")
def _tile_grad(op, grad):
    multiples = _int_inputs(op, 2)
    return (apply("Tile", [grad] + multiples, dict(op.attrs)), None) + \
        (None,) * len(multiples)


# --- boolean_mask ---------------------------------------------------------------------


def _boolean_mask_grad_kernel(grad, like, mask, axis):
    out = np.zeros(like.shape, grad.dtype)
    out[mask_index(masked_axes(like.shape, mask.shape, axis), mask)] = grad
    return out


register(OpDef("BooleanMaskGrad", _boolean_mask_grad_kernel, _like_infer))


@register_gradient("BooleanMask")
def _boolean_mask(op, grad):
    x, mask = op.inputs
    return apply("BooleanMaskGrad", [grad, x, mask], dict(op.attrs)), None


@register_gradient("BooleanMaskGrad")
def _boolean_mask_grad(op, grad):
    _, _, mask = op.inputs
    return boolean_mask(grad, mask, op.attrs["axis"]), None, None
