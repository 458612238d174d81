"""What a value of a loop body is across the iterations of one chunk.

Contract: the interpreter (interpret.py) gives each value of a loop body one of these:
- `Invariant`: the same in every iteration (an outer value, a constant, an op of those);
  `numpy` is its source as numpy holds it (kernels read it), `python` its source as a
  Python int or bool where the plan holds it so (else None).
- `Affine`: an integer `base + step * k` in iteration k of the chunk (a loop counter and
  the indices made from it); `base` is the source of a Python int, `step` an int;
  `origin` `(counter, c)` when `base` is a loop counter's value plus a constant `c`
  (what lets emit.py see that one range check covers another).
- `Op`: an op applied to other values (`inputs`), `output` its output index. Element-wise
  ops on lanes, and anything reading a loop variable.
- `Carried`: loop variable `index` as an iteration starts.
- `Choice`: an If's output: `then` where `pred` holds, else `otherwise`.
- `Negated`: `-value` (wrapping), for an integer fold that both adds and subtracts.
`varies(value)` tells whether a value may differ between iterations;
`depends_on_carried(value, index)` tells whether a value reads a loop variable (one, or
any): then its lanes are a scan of that variable's update (emit.py), or it is the update
itself (updates.py).
"""

from dataclasses import dataclass


@dataclass(eq=False)
class Invariant:
    numpy: str
    python: str | None
    tensor: object   # the graph tensor, for its dtype and shape


def constant_int(value):
    """The int an Invariant integer constant is (its literal), else None."""
    source = getattr(value, "python", None) or ""
    digits = source.strip("()")
    if value is None or not isinstance(value, Invariant) or \
            not digits.lstrip("-").isdigit() or value.tensor.dtype.np_dtype.kind not in "iu":
        return None
    return int(digits)


@dataclass(eq=False)
class Affine:
    base: str
    step: int
    tensor: object
    # (loop counter's name, c) when base is that counter's value plus the constant c
    origin: tuple | None = None


@dataclass(eq=False)
class Op:
    op: object          # the Operation
    inputs: tuple
    output: int = 0

    @property
    def tensor(self):
        return self.op.outputs[self.output]


@dataclass(eq=False)
class Carried:
    index: int
    tensor: object


@dataclass(eq=False)
class Choice:
    pred: object
    then: object
    otherwise: object
    tensor: object


@dataclass(eq=False)
class Negated:
    value: object

    @property
    def tensor(self):
        return self.value.tensor


def _parts(value):
    if isinstance(value, Op):
        return value.inputs
    if isinstance(value, Choice):
        return value.pred, value.then, value.otherwise
    if isinstance(value, Negated):
        return (value.value,)
    return ()


def varies(value, _memo=None):
    """Whether a value may differ between iterations."""
    memo = {} if _memo is None else _memo
    key = id(value)
    if key not in memo:
        memo[key] = isinstance(value, (Affine, Carried)) or \
            any(varies(v, memo) for v in _parts(value))
    return memo[key]


def depends_on_carried(value, index=None, _memo=None):
    """Whether a value reads a loop variable (`index`: that one)."""
    memo = {} if _memo is None else _memo
    key = id(value)
    if key not in memo:
        memo[key] = isinstance(value, Carried) and index in (None, value.index) or \
            any(depends_on_carried(v, index, memo) for v in _parts(value))
    return memo[key]
