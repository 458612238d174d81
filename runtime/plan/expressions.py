"""Python expressions that replace kernel calls in a compiled plan, where static shapes and
dtypes prove them equal to the kernel.

Contract: `expression(op, args, kernel, divisor)` is an `Expression`: the source of an
expression computing the single output of `op` from `args` (the source of its inputs'
values) and whether it is pure (cannot raise, so the plan may fold it into its one
reader), or None when the op keeps its kernel call. `kernel` is the name the kernel is
bound to in the generated function (called where only it can decide, e.g. to raise its
error); `divisor` is the value of a constant second operand, else None.

- Scalar specialization: an arithmetic, comparison or logical op whose inputs and output
  are rank 0 with a bool/int/float dtype becomes an operator on numpy scalars
  (`add = x + y`). numpy's scalar operators keep the operands' dtype and wrap integers as
  the ufuncs do; the plan runs them under one `errstate(all="ignore")`, so integer
  overflow wraps and float overflow/NaN pass silently, as in the kernels. An integer
  divisor that may be zero calls the kernel instead, which raises its ZeroDivisionError.
  Each candidate is checked once, on sample scalars of the static dtypes, to give the
  static output dtype (else the kernel stays).
- `never_warns(op, arrays)`: whether numpy never warns running the op (comparisons,
  logical ops, indexing; integer arithmetic on arrays), so it needs no errstate.
- `reads_a_feed(op, fed)`: whether the op's value may depend on a fed tensor (ids in
  `fed`), whose value is the feed's, not what the graph makes.
- `static_value(op, fed)`: the value of an op that static shapes and constants fix (a Shape,
  `shape(x)[i]`, small integers computed from them, a Fill of no element), printed as a
  constant.
- Identity is its input; `static_kernel(op)` is np.matmul for a MatMul whose ranks,
  dtype, inner and batch dims are known (the kernel's checks hold), else None.
- Scalar indexing: `GatherV2` with a rank-0 integer index and a static axis, and
  `StridedSlice` whose index is static except for rank-0 integer inputs, become direct
  indexing (`x[i]`, `x[i, 1:]`) with the static parts precomputed. For StridedSlice numpy
  raises the same IndexError (same message) as the kernel. Gather takes no negative
  index (TensorFlow's rule, runtime/ops/array_ops.py): its read is guarded,
  `(x[i] if i >= 0 else GatherV2(...))`, and has the kernel call as its `fallback` for
  numpy's IndexError past the end, so the kernel raises its own error for any index
  outside [0, size). `scalar_item` asks for a Python scalar: `x.item(i, j)` when the
  index is complete. `single_index(op, args)` is the index of an op that reads one
  element of a rank-1 array (what a loop may read through a faster view of the array);
  `view_read(op, view, index, folded)` is that read through the view.
"""

from typing import NamedTuple

import numpy as np
from autograph_py.runtime.constant_values import constant_value

_BINARY = {"Add": "+", "Sub": "-", "Mul": "*", "RealDiv": "/", "FloorDiv": "//",
           "FloorMod": "%", "Equal": "==", "NotEqual": "!=", "Less": "<", "LessEqual": "<=",
           "Greater": ">", "GreaterEqual": ">=", "LogicalAnd": "&", "LogicalOr": "|",
           "LogicalXor": "^"}
OPERATORS = {**{op: f"{{0}} {symbol} {{1}}" for op, symbol in _BINARY.items()},
              "Neg": "-{0}",
              # `~` on a numpy bool costs 0.4 µs (a ufunc call), `^ True` 15 ns
              "LogicalNot": "{0} ^ TRUE"}
# The globals the operator expressions use (the generated function has them too).
GLOBALS = {"TRUE": np.True_}
_INTEGER_DIVISIONS = frozenset({"FloorDiv", "FloorMod"})


class Expression(NamedTuple):
    source: str
    pure: bool  # it cannot raise and has no effect: it may be folded into its reader
    # An integer result that may be outside its dtype's range until wrapped (Python ints,
    # runtime/plan/python_scalars.py)
    unwrapped: bool = False
    # What to evaluate instead when `source` raises IndexError (numpy's own error)
    fallback: str | None = None
    # The lowest and highest value of an integer result, before any wrapping
    bounds: tuple[int, int] | None = None


def expression(op, args, kernel, divisor=None, scalar_item=False):
    """`scalar_item`: the output is wanted as a Python scalar (an index gives `x.item(i)`)."""
    if op.type == "Identity":
        return Expression(args[0], False)  # an alias: nothing to fold
    if op.type in OPERATORS:
        return _scalar(op, args, kernel, divisor)
    if op.type == "GatherV2":
        return _gather(op, args, kernel, scalar_item)
    source = _strided_slice(op, args, scalar_item) if op.type == "StridedSlice" else None
    return None if source is None else Expression(source, False)  # may raise IndexError


# Ops whose numpy forms never warn (comparisons of NaN are False, silently), on arrays and
# numpy scalars alike
_QUIET = frozenset({"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual",
                    "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "Identity",
                    "GatherV2", "StridedSlice", "SelectV2", "ExpandDims", "Const",
                    "Maximum", "Minimum"})
# ... and these, on integer and bool arrays (which wrap silently; numpy scalars warn)
_QUIET_ARRAYS = frozenset({"Add", "AddV2", "Sub", "Mul", "Neg"})


def never_warns(op, arrays=True):
    """Whether running `op` (on arrays, or on numpy scalars when not `arrays`) never
    makes numpy warn, so a plan running only such ops needs no errstate switch."""
    if op.type in _QUIET:
        return True
    return arrays and op.type in _QUIET_ARRAYS and all(
        t.dtype.np_dtype.kind in "biu" for t in (*op.inputs, *op.outputs))


def static_value(op, fed=frozenset()):
    """The value of a single-output op that static shapes and constants fix (the rule of
    shape inference, runtime/constant_values.py: `shape(x)`, `shape(x)[0]`, `size(x)` of
    known shapes, small integer values computed from those and constants), else None: a
    plan runs only on values of its graph's static shapes, so the kernel could only
    compute this value (TensorFlow's grappler folds the same). `fed`: the ids of the
    tensors the plan is fed, whose values are the feeds' (a Session may feed
    `shape(x)[0]` itself)."""
    if len(op.outputs) != 1 or op.type == "Const" or op.opdef.stateful:
        return None
    out = op.outputs[0]
    if op.type == "Fill" and out.shape.is_fully_defined() and not out.shape.num_elements():
        value = np.empty(out.shape.dims, out.dtype.np_dtype)  # (an empty TensorArray's)
    else:
        value = constant_value(out)
    if value is None or reads_a_feed(op, fed):  # (the walk only for a value found)
        return None
    value = np.array(value, out.dtype.np_dtype)
    value.flags.writeable = False  # (a plan's constants are shared by its calls)
    return value


def reads_a_feed(op, fed, limit=64):
    """Whether the value of `op` may depend on a fed tensor (or the walk is too long to
    tell): its inputs' producers, up to the ops whose value is their input's shape."""
    seen, stack = set(), [op]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if any(id(t) in fed for t in op.outputs) or len(seen) > limit:
            return True
        if op.type not in _SHAPE_OPS:
            stack.extend(t.op for t in op.inputs)
    return False


_SHAPE_OPS = frozenset({"Shape", "Size", "Rank"})  # (their value is their input's shape)


def is_number_scalar(tensor):
    return tensor.shape.dims == () and tensor.dtype.np_dtype.kind in "biuf"


def _scalar(op, args, kernel, divisor):
    if len(op.outputs) != 1 or op.attrs or not all(
            is_number_scalar(t) for t in (*op.inputs, *op.outputs)):
        return None
    source = OPERATORS[op.type].format(*args)
    if not _keeps_dtype(op):
        return None
    if op.type in _INTEGER_DIVISIONS and op.inputs[-1].dtype.np_dtype.kind in "iu":
        if divisor is None or divisor == 0:  # only the kernel knows how to fail
            return Expression(f"({source} if {args[1]} else {kernel}({', '.join(args)}))",
                              False)
    return Expression(source, True)


def _keeps_dtype(op):
    """Whether the operator gives the op's static output dtype (on sample scalars)."""
    samples = [np.ones((), t.dtype.np_dtype)[()] for t in op.inputs]
    names = [f"x{i}" for i in range(len(samples))]
    with np.errstate(all="ignore"):
        result = eval(OPERATORS[op.type].format(*names), {**GLOBALS, **dict(zip(names, samples))})
    return getattr(result, "dtype", None) == op.outputs[0].dtype.np_dtype


def _is_int_scalar(tensor):
    return tensor.shape.dims == () and tensor.dtype.np_dtype.kind in "iu"


def _gather(op, args, kernel, scalar_item):
    params, indices = op.inputs
    rank = params.shape.rank
    if not _is_int_scalar(indices) or rank is None or not -rank <= op.attrs["axis"] < rank:
        return None
    axis = op.attrs["axis"] % rank
    if scalar_item and rank == 1:
        read = f"{args[0]}.item({args[1]})"
    else:
        read = f"{args[0]}[{'' if axis == 0 else ':, ' * axis}{args[1]}]"
    # Only the kernel's error, never numpy's reading from the end or its IndexError
    failing = f"{kernel}({args[0]}, asarray({args[1]}), axis={op.attrs['axis']})"
    return Expression(_nonnegative(read, args[1], failing), False, fallback=failing)


def _nonnegative(read, index, failing):
    return f"({read} if {index} >= 0 else {failing})"


def view_read(op, view, index, folded):
    """The Expression reading `op`'s one element through `view` (a rank-1 array's scalar
    view) at `index`, falling back to `folded` (the op's own Expression)."""
    if op.type == "GatherV2":  # a view reads -1 from the end too
        return Expression(_nonnegative(f"{view}[{index}]", index, folded.fallback), False,
                          fallback=folded.fallback)
    return Expression(f"{view}[{index}]", False, fallback=folded.source)


def single_index(op, args):
    """The source of the index when `op` reads one element of a rank-1 array (`x[i]`),
    else None."""
    if op.inputs[0].shape.rank != 1 or op.outputs[0].shape.dims != ():
        return None
    if op.type == "GatherV2" and _is_int_scalar(op.inputs[1]):
        return args[1]
    if op.type == "StridedSlice" and len(op.attrs["spec"]) == 1:
        item = op.attrs["spec"][0]
        if item[0] == "int":
            return repr(item[1])
        if item[0] == "dyn" and _is_int_scalar(op.inputs[1 + item[1]]):
            return args[1 + item[1]]
    return None


def static_kernel(op):
    """np.matmul for a MatMul whose kernel checks (numeric dtype, ranks >= 2, inner and
    batch dims that agree) hold statically: the kernel would only repeat them, each call,
    before calling it. Dims the shape rule could not compare (unknown) keep the kernel,
    whose error is the shape rule's, not numpy's."""
    if op.type != "MatMul":
        return None
    a, b = op.inputs
    ranks = (a.shape.rank, b.shape.rank)
    if None in ranks or min(ranks) < 2 or a.dtype.np_dtype.kind not in "iuf":
        return None
    compared = (a.shape.dims[-1], b.shape.dims[-2], *a.shape.dims[:-2], *b.shape.dims[:-2])
    return None if None in compared else np.matmul


def _strided_slice(op, args, scalar_item):
    """`x[...]` for a spec of static items and rank-0 integer inputs (`x.item(...)` for
    a Python scalar when every item is an index)."""
    items = []
    for item in op.attrs["spec"]:
        kind = item[0]
        if kind == "int":
            items.append(repr(item[1]))
        elif kind == "dyn" and _is_int_scalar(op.inputs[1 + item[1]]):
            items.append(args[1 + item[1]])
        elif kind == "slice" and not any(isinstance(b, tuple) for b in item[1:]):
            items.append(":".join("" if b is None else repr(b) for b in item[1:]))
        elif kind == "newaxis":
            items.append("None")
        elif kind == "ellipsis":
            items.append("...")
        else:
            return None
    if scalar_item and all(kind in ("int", "dyn") for kind, *_ in op.attrs["spec"]):
        return f"{args[0]}.item({', '.join(items)})"
    if not items:
        return f"{args[0]}[()]"
    return f"{args[0]}[{', '.join(items)}{',' if len(items) == 1 else ''}]"
