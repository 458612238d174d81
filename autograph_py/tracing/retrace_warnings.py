"""The retracing warning of `ag.function`: which argument changed between traces, and how.

Contract: a `RetraceLog` records, per trace, a short description of each argument (a
tensor by dtype and shape, a Python value by type and value, a Variable by name;
lists, tuples and dicts item by item, named by path: `cfg['lr']`).
`record(names, values)` returns None until the trace after the `threshold`-th one
(TensorFlow warns after 5), then once the warning text: the function, each argument
whose description changed with its history
(`x: float32 shape (3,) -> (4,) -> (5,)`, `n: Python int 1 -> 2 -> 3`), and the fixes
that fit what changed. Later traces return None: the warning is given once.
"""

import numpy as np

from autograph_py.runtime import nest
from autograph_py.runtime.tensor import Tensor
from autograph_py.runtime.variables import Variable

_TEXT_LIMIT = 40  # a long Python value is cut: the warning names it, it does not dump it
_ABSENT = ("", "absent")  # a container item some traces did not have


class RetracingWarning(UserWarning):
    """An `ag.function` traced more often than its graphs can pay for themselves."""


def describe(value):
    """`(kind, text)` of one leaf: the kind is shared while only the text changes."""
    if isinstance(value, (Tensor, np.ndarray, np.generic)):
        return f"{value.dtype.name} shape", str(tuple(np.shape(value)))
    if isinstance(value, Variable):
        return "Variable", repr(value.name)
    if nest.is_composite(value):  # a Dataset, a TensorArray: keyed on what it holds
        return type(value).__name__, _cut(repr(value))
    return f"Python {type(value).__name__}", _cut(repr(value))


def leaves(path, value):
    """`{path: describe(leaf)}` for an argument, containers opened (`cfg['lr']`, `xs[0]`)."""
    if isinstance(value, dict):
        items = [(f"{path}[{k!r}]", v) for k, v in value.items()]
    elif isinstance(value, (list, tuple)):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    else:
        return {path: describe(value)}
    return {p: d for item in items for p, d in leaves(*item).items()}


def _cut(text):
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT - 3] + "..."


def _history(descriptions):
    """`kind a -> b -> c`, consecutive repeats dropped; the kind once when it never
    changes."""
    steps = [d for i, d in enumerate(descriptions) if i == 0 or d != descriptions[i - 1]]
    if len({kind for kind, _ in steps}) == 1:
        return f"{steps[0][0]} " + " -> ".join(text for _, text in steps)
    return " -> ".join(f"{kind} {text}".strip() for kind, text in steps)


class RetraceLog:
    """The arguments of each trace of one function, until the warning is given."""

    def __init__(self, function_name, threshold):
        self._name = function_name
        self._threshold = threshold
        self._traces = []  # per trace: [describe(value) per argument]
        self._warned = False

    def record(self, names, values):
        """Record one trace; the warning text at the trace after the threshold, else None."""
        if self._warned:
            return None
        self._traces.append({p: d for name, value in zip(names, values)
                             for p, d in leaves(name, value).items()})
        if len(self._traces) <= self._threshold:
            return None
        self._warned = True
        paths = dict.fromkeys(p for trace in self._traces for p in trace)  # first-seen order
        changed = [(path, [trace.get(path, _ABSENT) for trace in self._traces])
                   for path in paths]
        changed = [(path, history) for path, history in changed if len(set(history)) > 1]
        lines = "".join(f"\n  {name}: {_history(history)}" for name, history in changed)
        return (f"ag.function '{self._name}' was traced {len(self._traces)} times; each "
                f"trace builds and compiles a new graph.{lines or ' (no argument changed)'}"
                f"\n{_fixes(changed)}")


def _fixes(changed):
    python_values = [name for name, history in changed
                     if any(kind.startswith("Python") for kind, _ in history)]
    shaped = [name for name, history in changed
              if any(kind.endswith("shape") for kind, _ in history)]
    fixes = []
    if python_values:
        fixes.append(f"pass {', '.join(python_values)} as a tensor (ag.constant) instead of "
                     "a Python value: a tensor is fed, a Python value is baked into the graph")
    if shaped:
        fixes.append(f"give input_signature=[ag.TensorSpec([None, ...], ...)] or "
                     f"reduce_retracing=True so {', '.join(shaped)} may change shape")
    if not fixes:
        fixes.append("give an input_signature, or pass tensors instead of Python objects")
    return "To trace less: " + "; or ".join(fixes) + "."
