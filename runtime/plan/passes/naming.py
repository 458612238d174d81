"""Pass: names in the generated function that no other pass chose.

Contract:
- `loop_variable_names(namer, ops, skip)`: for each While among `ops`, its outputs (the
  loop variables) named after the variables the user wrote (`n`, `steps`: the names its
  body graph gives its inputs, from the converted code's symbols or while_loop's body
  parameters), and for each If its outputs after the variables its branches set (the
  then-graph's `output_names`), made unique by the namer (never a keyword nor a global
  of the generated function); id(tensor) -> name, for `schedule`'s `rename`. An output
  without a user's name (`loop_var_0`, cond's `output 0`) keeps its op's (`while_0`,
  `if_1`); ids in `skip` are left alone.
  Run by the executor for the plan's own steps and by inlining for each subgraph.
- `kernels(program)`: the global each kernel-calling record's kernel (or bare ufunc) is
  bound to, after its op type (`Add`, `Add_1` for a second kernel of that type).
- `globals_(program)`: attributes that are not literals (`reshape_shape`) and the locals
  and dtype of a fused chain, once the other passes have decided what is printed.
"""

import keyword
import math
import re

import numpy as np
from autograph_py.runtime.plan.fusion import ufunc_of
from autograph_py.runtime.plan.passes.records import IFS, WHILES, walk

_GENERIC = re.compile(r"loop_vars?_\d+")  # while_loop's names for unnamed variables


def loop_variable_names(namer, ops, skip=()):
    names = {}
    for op in ops:
        if op.type in WHILES:
            bases = [_user_name(p.op.name) for p in op.attrs["body_graph"].inputs]
        elif op.type in IFS:
            bases = [_branch_name(d) for d in op.attrs["then_graph"].output_names or ()]
        else:
            continue
        for t, base in zip(op.outputs, bases):
            if base is not None and id(t) not in skip:
                names[id(t)] = namer.fresh(base)
    return names


def _branch_name(description):
    """`n` for an If output control_flow.cond describes as `'n'` (the variable the
    branches set); None for `output 0` (cond's unnamed outputs)."""
    quoted = re.fullmatch(r"'(.+)'", description)
    return _user_name(quoted.group(1)) if quoted else None


def _user_name(name):
    """`n` for `n`; `loop_condition` for the converters' `<loop condition>` and
    `for_loop_index` for their `the for loop index` (a symbol they invent); None for
    while_loop's positional names."""
    name = re.sub(r"_+", "_", name.rpartition("/")[2]).strip("_")
    name = name[4:] if name.startswith("the_") else name
    return None if not name or _GENERIC.fullmatch(name) else name


def kernels(program):
    for record in walk(program.block):
        if record.control or record.op.type == "Const":
            continue
        record.ufunc = ufunc_of(record.step)
        kernel = record.ufunc or record.step.kernel
        record.kernel = program.namer.kernel(kernel, record.op.type)
        program.namespace[record.kernel] = kernel


def globals_(program):
    namer, namespace = program.namer, program.namespace
    for record in walk(program.block):
        if record.chain:
            result = record.chain[-1].step.outputs[0]
            names = {}
            if not record.in_place:
                names["dtype"] = namer.fresh(f"{result}_dtype")
                namespace.update({names["dtype"]: record.op.outputs[0].dtype.np_dtype,
                                  "empty": np.empty})
            for part in ("flat", "source", "start", "block"):
                names[part] = namer.fresh(f"{result}_{part}")
            record.chain_names = names
        elif not (record.control or record.in_run or record.op.type == "Const" or
                  record.expression is not None or record.ufunc is not None):
            record.attrs = _attributes(namer, namespace, record)


def _attributes(namer, namespace, record):
    """attr -> its source (a literal or a global), or the name of one global holding them
    all when an attr's name is no Python identifier (passed as `**attrs`)."""
    op = record.op
    label = record.step.outputs[0] if record.step.outputs else op.type
    if not all(name.isidentifier() and not keyword.iskeyword(name) for name in op.attrs):
        attrs = namer.fresh(f"{label}_attrs")
        namespace[attrs] = op.attrs
        return attrs
    sources = {}
    for name, value in op.attrs.items():
        source = literal(value)
        if source is None:
            source = namer.fresh(f"{label}_{name}")
            namespace[source] = value
        sources[name] = source
    return sources


def literal(value):
    """Python source for `value` when it is a plain constant (ints, strings, tuples of
    them...), else None."""
    if value is None or type(value) in (bool, int, str):
        return repr(value)
    if type(value) is float:
        return repr(value) if math.isfinite(value) else None
    if type(value) is tuple:
        items = [literal(v) for v in value]
        if None not in items:
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    return None
