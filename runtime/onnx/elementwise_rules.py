"""ONNX rows of the elementwise ops, with Python's (numpy's) rules kept exact.

- One-to-one ops map to one ONNX node (`_DIRECT`).
- `FloorDiv` on integers floors (ONNX `Div` truncates: -7 // 2 is -4, not -3); on floats
  it is numpy's `floor_divide` step for step (fmod, the exact quotient, the sign fix,
  rounding), so `1.0 // 0.1` is 9.0 as in Python, not floor(1.0 / 0.1) = 10.0.
- `FloorMod` on integers is `Mod` (fmod=0 takes the divisor's sign, as Python); on
  floats `fmod` plus numpy's sign fix (a remainder of zero takes the divisor's sign).
- `RealDiv` divides integers in floating point (float64 for int32/int64), as our kernel.
- A zero integer divisor is not checked here: our kernel raises, the model leaves it to
  the ONNX runtime (onnxruntime fails the run; docs/limitations.md).
"""

import numpy as np
from autograph_py.runtime.onnx.table import register_conversion

_DIRECT = {
    "Add": "Add", "Sub": "Sub", "Mul": "Mul", "Neg": "Neg", "Abs": "Abs", "Sqrt": "Sqrt",
    "Exp": "Exp", "Log": "Log", "Tanh": "Tanh", "Sigmoid": "Sigmoid", "Relu": "Relu",
    "Floor": "Floor", "Ceil": "Ceil", "Sign": "Sign", "Equal": "Equal", "Less": "Less",
    "LessEqual": "LessOrEqual", "Greater": "Greater", "GreaterEqual": "GreaterOrEqual",
    "LogicalAnd": "And", "LogicalOr": "Or", "LogicalXor": "Xor", "LogicalNot": "Not",
    "Maximum": "Max", "Minimum": "Min", "IsNan": "IsNaN", "IsInf": "IsInf", "Pow": "Pow",
}


def _direct(onnx_type):
    def rule(g, op, *inputs):
        return g.node(onnx_type, inputs, name=op.name)

    return rule


for _ours, _theirs in _DIRECT.items():
    register_conversion(_ours)(_direct(_theirs))


def _np(op, i=0):
    return np.dtype(op.inputs[i].dtype.np_dtype)


@register_conversion("NotEqual")
def not_equal(g, op, x, y):
    return g.node("Not", [g.node("Equal", [x, y])], name=op.name)


@register_conversion("Square")
def square(g, op, x):
    return g.node("Mul", [x, x], name=op.name)


@register_conversion("IsFinite")
def is_finite(g, op, x):
    bad = g.node("Or", [g.node("IsInf", [x]), g.node("IsNaN", [x])])
    return g.node("Not", [bad], name=op.name)


@register_conversion("Round")
def round_(g, op, x):
    # ONNX Round is half to even, as np.round; integers are already round.
    return g.node("Round" if _np(op).kind == "f" else "Identity", [x], name=op.name)


@register_conversion("RealDiv")
def real_div(g, op, x, y):
    want = np.dtype(op.outputs[0].dtype.np_dtype)
    if _np(op) != want:
        x, y = g.cast(x, want), g.cast(y, want)
    return g.node("Div", [x, y], name=op.name)


def _sign_differs(g, a, b, zero):
    """a and b of different signs (a nonzero): where Python's rules differ from C's."""
    nonzero = g.node("Not", [g.node("Equal", [a, zero])])
    differ = g.node("Xor", [g.node("Less", [a, zero]), g.node("Less", [b, zero])])
    return g.node("And", [nonzero, differ])


@register_conversion("FloorDiv")
def floor_div(g, op, x, y):
    dtype = _np(op)
    if dtype.kind == "u":  # no negative operands: truncating is flooring
        return g.node("Div", [x, y], name=op.name)
    zero = g.const(0, dtype)
    if dtype.kind == "i":
        quotient = g.node("Div", [x, y])  # truncated
        remainder = g.node("Mod", [x, y], fmod=1)  # the sign of x: C's remainder
        fix = g.cast(_sign_differs(g, remainder, y, zero), dtype)
        return g.node("Sub", [quotient, fix], name=op.name)
    # numpy's npy_floor_divide / npy_divmod, on floats.
    half = g.const(0.5, dtype)
    mod = g.node("Mod", [x, y], fmod=1)
    div = g.node("Div", [g.node("Sub", [x, mod]), y])
    div = g.node("Sub", [div, g.cast(_sign_differs(g, mod, y, zero), dtype)])
    floor = g.node("Floor", [div])
    up = g.node("Greater", [g.node("Sub", [div, floor]), half])
    floor = g.node("Add", [floor, g.cast(up, dtype)])
    true_quotient = g.node("Div", [x, y])
    # A zero quotient takes the sign of x / y; a zero divisor gives x / y (inf or nan).
    signed_zero = g.node("Mul", [true_quotient, zero])
    result = g.node("Where", [g.node("Equal", [div, zero]), signed_zero, floor])
    return g.node("Where", [g.node("Equal", [y, zero]), true_quotient, result], name=op.name)


@register_conversion("FloorMod")
def floor_mod(g, op, x, y):
    dtype = _np(op)
    if dtype.kind in "iu":
        return g.node("Mod", [x, y], fmod=0, name=op.name)  # the divisor's sign: Python's
    zero = g.const(0, dtype)
    mod = g.node("Mod", [x, y], fmod=1)
    fixed = g.node("Where", [_sign_differs(g, mod, y, zero), g.node("Add", [mod, y]), mod])
    # numpy: a zero remainder takes the divisor's sign (fmod's nan for y == 0 stays).
    signed_zero = g.node("Where", [g.node("Less", [y, zero]), g.const(-0.0, dtype), zero])
    return g.node("Where", [g.node("Equal", [fixed, zero]), signed_zero, fixed], name=op.name)
