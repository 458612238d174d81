"""How each loop variable changes from one iteration to the next: its update form.

Contract: `roles(outputs, record)` finds, from the values of the body's outputs read with
every loop variable `Carried`, the loop test (`"test"`, a rotated loop's), the counters
(`("counter", step)`: `v + c` or `v - c` for a constant c) and the variables the body
never changes (`"same"`). `forms(outputs, roles)` gives every other variable an `Update`:
its value in each iteration is one of a few cases (the branches of the ifs it is set
in), each case keeping it or changing it in one way, and every changing case the same
kind of change:
- "fold": `v = v ⊕ x` (`+ - * max min and or`: a reduction, a count);
- "set": `v = x` with x not reading v (the last iteration that sets it wins: a
  first-hit search with `break`, a flag);
- "append": `v = concat([v, expand_dims(x, 0)])` (a list appended to);
- "write"/"written": a TensorArray's buffer and written mask, one write at an index that
  is the same for both.
Any other change (two kinds mixed: `v = 0 if c else v + x`, a value read before it is
updated in some other way) raises NotVectorizable naming the variable.
"""

from dataclasses import dataclass, field

import numpy as np
from autograph_py.runtime.plan.vectorize.interpret import NotVectorizable
from autograph_py.runtime.plan.vectorize.values import (
    Carried,
    Choice,
    Invariant,
    Negated,
    Op,
    constant_int,
    depends_on_carried,
)

# op type -> its ufunc, for reductions (`v = v ⊕ x`); `x ⊕ v` too where the ufunc is
# commutative bit for bit (numpy's maximum/minimum return the second of two equal floats,
# -0.0 and 0.0, so `max(x, v)` is not `max(v, x)` on floats).
FOLDS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum,
         "Minimum": np.minimum, "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or}
_COMMUTATIVE = {"Add", "Mul", "LogicalAnd", "LogicalOr"}
_COMMUTATIVE_ON_INTEGERS = {"Maximum", "Minimum"}


@dataclass(eq=False)
class Update:
    kind: str               # "fold", "set", "append", "write", "written"
    index: int              # the loop variable
    cases: list             # (conditions, payload): conditions are (pred, polarity) pairs
    keeps: bool             # whether some case keeps the value
    fold: str | None = None  # the op type of a fold
    partner: int | None = None  # write <-> written
    extra: dict = field(default_factory=dict)


def roles(outputs, record):
    loop = record.loop
    found = [None] * len(outputs)
    for j, value in enumerate(outputs):
        if j == loop.test:
            found[j] = "test"
        elif isinstance(value, Carried) and value.index == j:
            found[j] = "same"
        else:
            step = _counter_step(value, j)
            if step is not None:
                found[j] = ("counter", step)
    return found


def _counter_step(value, j):
    if not isinstance(value, Op) or value.op.type not in ("Add", "Sub") or \
            value.tensor.shape.dims != () or value.tensor.dtype.np_dtype.kind not in "iu":
        return None
    a, b = value.inputs
    if value.op.type == "Add" and isinstance(a, Invariant):
        a, b = b, a
    step = constant_int(b)
    if not (isinstance(a, Carried) and a.index == j and step):
        return None
    return step if value.op.type == "Add" else -step


def forms(outputs, roles, names):
    updates = {}
    for j, value in enumerate(outputs):
        if roles[j] is None:
            updates[j] = _update(value, j, names[j])
    _pair_writes(updates, names)
    return updates


def _update(value, j, name):
    cases = _cases(value, j, (), name)
    changes = [(conds, payload) for conds, payload in cases if payload is not None]
    kinds = {payload[0] for _, payload in changes}
    if len(kinds) != 1:
        ways = ", ".join(sorted(kinds))
        raise NotVectorizable(f"'{name}' is changed in two ways in one loop ({ways})"
                              if kinds else f"'{name}' never changes")
    kind = kinds.pop()
    update = Update(kind, j, [(conds, payload[1:]) for conds, payload in changes],
                    keeps=len(changes) < len(cases))
    if kind == "fold":
        ops = {payload[0] for _, payload in update.cases}
        if ops == {"Add", "Sub"} and value.tensor.dtype.np_dtype.kind in "iu":
            # v - x is v + (-x) when integers wrap: one fold adding both
            update.cases = [(conds, ("Add", Negated(x) if op == "Sub" else x))
                            for conds, (op, x) in update.cases]
            ops = {"Add"}
        if len(ops) != 1:
            raise NotVectorizable(f"'{name}' is combined with {' and '.join(sorted(ops))}")
        update.fold = ops.pop()
        update.cases = [(conds, payload[1]) for conds, payload in update.cases]
    elif kind in ("set", "append"):
        update.cases = [(conds, payload[0]) for conds, payload in update.cases]
    return update


def _cases(value, j, conds, name):
    """[(conditions, payload)]: payload None keeps the value, else (kind, ...)."""
    if isinstance(value, Carried) and value.index == j:
        return [(conds, None)]
    if isinstance(value, Choice):
        return _cases(value.then, j, conds + ((value.pred, True),), name) + \
            _cases(value.otherwise, j, conds + ((value.pred, False),), name)
    if not depends_on_carried(value, j):  # (other variables' values are scans)
        return [(conds, ("set", value))]
    if isinstance(value, Op):
        change = _change(value, j)
        if change is not None:
            return [(conds, change)]
    how = getattr(getattr(value, "op", None), "type", "an if")
    raise NotVectorizable(f"'{name}' is computed from its value by {how}, not by a fold, "
                          "an assignment, an append or a TensorArray write")


def _is(value, j):
    return isinstance(value, Carried) and value.index == j


def _change(value, j):
    t, inputs = value.op.type, value.inputs
    if t in FOLDS and len(inputs) == 2:
        a, b = inputs
        floats = value.tensor.dtype.np_dtype.kind == "f"
        if _is(a, j) and not depends_on_carried(b, j):
            return ("fold", t, b)
        if _is(b, j) and not depends_on_carried(a, j) and (
                t in _COMMUTATIVE or t in _COMMUTATIVE_ON_INTEGERS and not floats):
            return ("fold", t, a)
    if t == "ConcatV2" and len(inputs) == 2 and value.op.attrs.get("axis") == 0 and \
            _is(inputs[0], j):
        row = _row(inputs[1], j)
        if row is not None:
            return ("append", row)
    if t == "TensorArrayScatter" and isinstance(inputs[0], Carried) and \
            isinstance(inputs[1], Carried) and inputs[value.output].index == j:
        index, row = _row(inputs[2], j), _row(inputs[3], j)
        if index is not None and row is not None and index.tensor.shape.dims == ():
            return ("write" if value.output == 0 else "written", value, index, row)
    return None


def _row(value, j):
    """x, where value is `expand_dims(x, 0)` and x does not read loop variable j."""
    if isinstance(value, Op) and value.op.type == "ExpandDims" and \
            value.op.attrs.get("axis") == 0 and not depends_on_carried(value.inputs[0], j):
        return value.inputs[0]
    return None


def _pair_writes(updates, names):
    """A TensorArray's buffer and written mask change in the same scatters."""
    for j, update in updates.items():
        if update.kind not in ("write", "written"):
            continue
        scatter = update.cases[0][1][0]
        partner = scatter.inputs[1 if update.kind == "write" else 0].index
        other = updates.get(partner)
        if other is None or {update.kind, other.kind} != {"write", "written"} or \
                len(other.cases) != len(update.cases) or any(
                    a[0] != b[0] or a[1][0].op is not b[1][0].op
                    for a, b in zip(update.cases, other.cases)):
            raise NotVectorizable(f"TensorArray '{names[j]}' is written otherwise than once "
                                  "an iteration")
        update.partner = partner
