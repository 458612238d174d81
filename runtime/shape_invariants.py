"""Shape invariants of staged loops: which shapes a loop variable may take.

Contract (as TensorFlow's `while_loop`):
- A loop variable keeps its shape across iterations. One whose shape changes after an
  iteration is an error naming it, its shape before and after, and the
  `ag.set_loop_options(shape_invariants=...)` call (or `while_loop`'s `shape_invariants=`)
  that allows the change. Dims the runtime cannot infer (None) are not a change.
- A variable with an invariant (a shape with None dims, or None for any shape) starts
  at that shape; it must enter the loop, and leave every iteration, with a shape the
  invariant allows.
- The tensors inside a composite (a TensorArray's buffer) and a Python list grown in the
  loop (a TensorList's stacked rows) grow by design: their shapes relax freely (RELAXED).
`flat_invariants(structure, invariants)` gives one entry per leaf of `nest.flatten`.
"""

from autograph_py.runtime import nest
from autograph_py.runtime.shapes import TensorShape

RELAXED = "relaxed"


def flat_invariants(structure, invariants):
    """One entry per leaf of `structure`: None (keep the shape), a TensorShape, or RELAXED.

    `invariants` has the structure of `structure`; its leaves are shapes (a list of dims
    is one shape where `structure` has a tensor), None, or RELAXED."""
    if nest.is_composite(structure) or invariants is RELAXED:
        return [RELAXED] * len(nest.flatten(structure))
    if not nest.is_nested(structure):
        return [None if invariants is None else as_shape(invariants)]
    children = nest.children(structure)
    if invariants is None:
        return [entry for child in children for entry in flat_invariants(child, None)]
    if not nest.is_nested(invariants) or len(nest.children(invariants)) != len(children):
        raise ValueError(f"shape_invariants: {invariants!r} does not have the structure of "
                         "the loop variables (one shape, or None, per variable)")
    return [entry for child, inv in zip(children, nest.children(invariants))
            for entry in flat_invariants(child, inv)]


def as_shape(value):
    if isinstance(value, TensorShape):
        return value
    try:
        return TensorShape(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"shape_invariants: {value!r} is not a shape: {e}") from None


def _allows(invariant, shape):
    return invariant.is_compatible_with(shape)


def entry_shape(shape, invariant, name):
    """The shape a loop variable has inside the loop, given the shape it enters with."""
    if invariant is None or invariant is RELAXED:
        return shape
    if not _allows(invariant, shape):
        raise ValueError(f"{name} enters the loop with shape {shape}, which its shape "
                         f"invariant {invariant} does not allow")
    return invariant


def next_shape(before, after, invariant, name):
    """The shape a loop variable has in the next tracing of the body, or a ValueError."""
    if invariant is RELAXED:
        return before.most_specific_compatible(after)
    if invariant is not None:
        if not _allows(invariant, after):
            raise ValueError(f"{name} has shape {after} after an iteration, which its shape "
                             f"invariant {invariant} does not allow")
        return before
    if not before.is_compatible_with(after):
        relaxed = _spelled(before.most_specific_compatible(after))
        raise ValueError(
            f"{name} has shape {before} before the loop but {after} after one iteration; a "
            "loop variable must keep its shape unless a shape invariant allows the change: "
            f"put `ag.set_loop_options(shape_invariants=[({_bare(name)}, {relaxed})])` first "
            "in the loop body (or pass shape_invariants= to ag.while_loop)")
    return before.most_specific_compatible(after)


def _spelled(shape):
    return "None" if shape.rank is None else repr(list(shape.dims))


def _bare(name):
    """A variable's name as the user wrote it (messages quote it as 'x')."""
    return name.split("'")[1] if name.count("'") >= 2 else name
