"""Scheduling a plan: which values its steps read and make, their names in the
generated function, and when each value dies.

Contract: `schedule(ops, names, namer, fetch_tensors, ...)` gives the `Step`s running
`ops` in order and the names of the fetched values; `Namer` hands out readable, unique
Python identifiers (values after their ops, kernels after their op types);
`forwarded_input(graph)` recognizes a rotated loop's condition graph. Used for a whole
plan (runtime/plan/executor.py) and for each subgraph inlined into it
(runtime/plan/passes/inlining.py).
"""

import keyword
import re
from collections.abc import Callable
from typing import NamedTuple

from autograph_py.runtime.plan.expressions import static_kernel
from autograph_py.runtime.plan.python_scalars import GLOBALS as PYTHON_GLOBALS

# Names the generated function uses itself; values and kernels never take them.
_RESERVED = frozenset({"run", "ctx", "feeds", "e", "OpError", "failed", "errstate",
                       "set_errstate", "reset_errstate", "IGNORE_ALL", "TRUE", "blas",
                       "one_blas_thread", "restore_blas_threads", "empty", "asarray",
                       *PYTHON_GLOBALS})
_CAMEL_HUMP = re.compile(r"(?<=[a-z0-9])([A-Z])")  # StridedSlice -> strided_slice


class Step(NamedTuple):
    """One op of a plan: what its line in the generated function is made from."""

    op: object                 # the Operation
    kernel: Callable           # the op's kernel, or one specialized to its input dtypes
    inputs: tuple[str, ...]    # the values it reads
    outputs: tuple[str, ...]   # the values it makes
    frees: tuple[str, ...]     # the values that are dead once it has run


class Namer:
    """Unique Python identifiers for the generated function, readable ones: a value is
    named after its op (`layer/StridedSlice_1` -> `layer_strided_slice_1`), a kernel
    after its op type (`StridedSlice`)."""

    def __init__(self):
        self._used = set(_RESERVED)
        self._kernels = {}  # id(kernel) -> name

    def fresh(self, base):
        base = re.sub(r"\W", "_", base, flags=re.ASCII)
        if not base or base[0].isdigit():
            base = "_" + base
        name, n = base, 1
        while name in self._used or keyword.iskeyword(name):
            name, n = f"{base}_{n}", n + 1
        self._used.add(name)
        return name

    def value(self, tensor):
        op = tensor.op
        suffix = "" if len(op.outputs) == 1 else f"_{tensor.value_index}"
        return self.fresh(_CAMEL_HUMP.sub(r"_\1", op.name).lower() + suffix)

    def kernel(self, kernel, op_type):
        name = self._kernels.get(id(kernel))
        if name is None:
            name = self._kernels[id(kernel)] = self.fresh(op_type)
        return name



def schedule(ops, names, namer, fetch_tensors, fed=(), keep=(), rename=None):
    """(steps, fetch names) for running `ops` in order: names for their outputs (added to
    `names`, which holds the names of the values they read that no op of theirs makes;
    `rename` maps id(tensor) to a name given already), and after which step each value
    is dead. Fetched values, Const values (globals of the generated function) and the
    names in `keep` are never freed."""
    rename = rename or {}
    made = {}  # id(tensor) -> the name an op binds it to
    for op in ops:
        for t in op.outputs:
            if id(t) in fed:  # the feed wins: the op's own value is bound, never read
                made[id(t)] = namer.fresh(f"unused_{names[id(t)]}")
            else:
                names[id(t)] = made[id(t)] = rename.get(id(t)) or namer.value(t)
    fetch_names = [names[id(t)] for t in fetch_tensors]
    last_reader = {}
    for step, op in enumerate(ops):
        for t in op.inputs:
            last_reader[names[id(t)]] = step
    frees = [[] for _ in ops]
    for name, step in last_reader.items():
        frees[step].append(name)
    for step, op in enumerate(ops):
        for t in op.outputs:  # outputs nobody reads die at once
            if made[id(t)] not in last_reader:
                frees[step].append(made[id(t)])
    kept = set(fetch_names) | set(keep) | {made[id(op.outputs[0])] for op in ops
                                           if op.type == "Const"}
    steps = [Step(op, _kernel(op), tuple(names[id(t)] for t in op.inputs),
                  tuple(made[id(t)] for t in op.outputs),
                  tuple(sorted(n for n in frees[step] if n not in kept)))
             for step, op in enumerate(ops)]
    return steps, fetch_names

def _kernel(op):
    """The op's kernel, or a faster one for its inputs' static dtypes (`specialize`) and
    shapes (`static_kernel`)."""
    kernel = op.opdef.kernel
    specialize = getattr(kernel, "specialize", None)
    if specialize is None:
        return static_kernel(op) or kernel
    if op.attrs or not op.inputs:
        return kernel
    return specialize(*(t.dtype.np_dtype for t in op.inputs)) or kernel



def forwarded_input(graph):
    """The index of the input that `graph`'s single output is, when the graph only
    forwards it (no stateful ops); else None. (A rotated loop's condition graph.)"""
    if len(graph.outputs) != 1 or graph.stateful_ops:
        return None
    output = graph.outputs[0]
    for i, t in enumerate(graph.inputs):
        if t is output:
            return i
    return None
