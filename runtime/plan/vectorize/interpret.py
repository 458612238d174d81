"""A loop body's records read as values across iterations (values.py).

Contract: `interpret(program, record, roles)` walks the body block of the inlined While
`record` in program order (names are the generated function's, so a loop variable the
body rebinds in place is read as the generated code reads it) and returns the value of
each body output, one per loop variable. `roles` says what each loop variable is as an
iteration starts: `("counter", step)` an `Affine` from its current value, `"same"` an
`Invariant` (the body never changes it), `"test"` True (the rotated loop runs the body
only while it holds), None a `Carried`. Anything the vectorized form cannot run raises
`NotVectorizable` with the reason: a stateful op, a nested loop, an op of another kind
reading values that differ between iterations.
"""

import numpy as np
from autograph_py.runtime.plan.expressions import static_value
from autograph_py.runtime.plan.passes.records import IFS, WHILES, walk
from autograph_py.runtime.plan.python_scalars import literal, to_numpy
from autograph_py.runtime.plan.vectorize.values import (
    Affine,
    Carried,
    Choice,
    Invariant,
    Op,
    constant_int,
    depends_on_carried,
    varies,
)

INDEXING = frozenset({"GatherV2", "StridedSlice"})
# Ops read across iterations in the update forms (updates.py), never computed as lanes.
UPDATES = frozenset({"ConcatV2", "TensorArrayScatter"})


class NotVectorizable(Exception):
    """Why a loop is left as it is."""


def interpret(program, record, roles):
    step, attrs = record.step, record.op.attrs
    num_vars = attrs["num_vars"]
    body_graph = attrs["body_graph"]
    captured = step.inputs[num_vars:]
    env = {}
    for j, (name, t) in enumerate(zip(step.outputs, body_graph.inputs)):
        role = roles[j]
        if role == "test":
            env[name] = Invariant("True", "True", t)
        elif role == "same":
            env[name] = outer(program, name, t)
        elif role is not None:
            env[name] = Affine(_python_int(program, name), role[1], t, (name, 0))
        else:
            env[name] = Carried(j, t)
    for i, t in zip(attrs["body_indices"], body_graph.inputs[num_vars:]):
        env[captured[i]] = outer(program, captured[i], t)
    body = record.blocks[1]
    _block(program, body, env)
    return [env[name] for name in body.outputs]


def outer(program, name, tensor):
    """A value made outside the loop, as the body reads it (a rank-0 number that kernels
    read as a 0-d array: a ufunc takes one faster than a scalar)."""
    if name in program.constants:
        numpy = program.numpy_constants.get(name, name)
        python = literal(program.constants[name]) if name in program.held else None
        if tensor.shape.dims == ():
            numpy = _array_constant(program, program.namespace[numpy], numpy)
        return Invariant(numpy, python, tensor)
    static = _static_int(program, name) if name in program.held else None
    if static is not None:  # (`n = shape(x)[0]` of a traced length: a literal bound)
        return Invariant(_array_constant(program, np.array(static, program.held[name])),
                         literal(static), tensor)
    python = name if name in program.held else None
    if tensor.shape.dims == () and name in program.plan.feed_names:
        # (the 0-d array fed, which the plan reads as a Python or numpy scalar otherwise)
        if name not in program.feed_arrays:
            program.feed_arrays[name] = program.namer.fresh(f"{name}_array")
        return Invariant(program.feed_arrays[name], python, tensor)
    if python is not None:
        return Invariant(to_numpy(name, program.held[name]), name, tensor)
    return Invariant(name, None, tensor)


def _array_constant(program, value, base="constant"):
    """The global holding the rank-0 `value` as a read-only 0-d array: one per value
    (its bits: -0.0 is not 0.0)."""
    value = np.array(value)
    key = ("array", value.dtype, value.tobytes())
    if key not in program.helpers:
        value.flags.writeable = False
        program.helpers[key] = program.namer.fresh(f"{base}_array")
        program.namespace[program.helpers[key]] = value
    return program.helpers[key]


def _static_int(program, name):
    """The int the outer value `name` is when static shapes fix it (`shape(x)[0]`),
    else None."""
    if program.producers is None:
        program.producers = {out: record.op for record in walk(program.block)
                             for out in record.step.outputs}
    op = program.producers.get(name)
    if op is None:
        return None
    value = static_value(op, {id(t) for t in program.plan.feed_tensors})
    return None if value is None or value.dtype.kind not in "iu" else int(value)


def _python_int(program, name):
    """The source of a rank-0 integer loop variable as a Python int."""
    return name if name in program.held else f"int({name})"


def _block(program, block, env):
    for record in block.records:
        op, step = record.op, record.step
        if op.type == "Const":
            env[step.outputs[0]] = outer(program, step.outputs[0], op.outputs[0])
        elif op.type in WHILES:
            raise NotVectorizable("it has a loop inside")
        elif op.opdef.stateful or op.type == "StatefulIf":
            raise NotVectorizable(f"it runs {op.type} '{op.name}', an op with effects, in "
                                  "each iteration")
        elif op.type in IFS and record.blocks:
            _if(program, record, env)
        else:
            inputs = tuple(env[name] for name in step.inputs)
            for i, name in enumerate(step.outputs):
                env[name] = _value(op, inputs, i)


def _if(program, record, env):
    step = record.step
    pred = env[step.inputs[0]]
    branches = []
    for block in record.blocks:
        inner = dict(env)
        _block(program, block, inner)
        branches.append([inner[name] for name in block.outputs])
    for name, t, then, otherwise in zip(step.outputs, record.op.outputs, *branches):
        env[name] = then if then is otherwise else Choice(pred, then, otherwise, t)


def _value(op, inputs, output):
    t = op.type
    if t == "Identity":
        return inputs[0]
    affine = _affine(op, inputs)
    if affine is not None:
        return affine
    if not any(isinstance(v, (Affine, Op, Carried, Choice)) and varies(v) for v in inputs):
        return Op(op, inputs, output)  # the same in every iteration
    if t in INDEXING and not (_plain_index(op) or _inside_element(op, inputs)):
        raise NotVectorizable(f"{t} '{op.name}' indexes otherwise than one element of the "
                              "first axis, or within an element by invariant indices")
    if op.opdef.elementwise or t in INDEXING | UPDATES or t == "ExpandDims":
        return Op(op, inputs, output)
    varying = "a loop variable" if any(map(depends_on_carried, inputs)) else \
        "values that differ between iterations"
    raise NotVectorizable(f"{t} '{op.name}' reads {varying}")


def _plain_index(op):
    """Whether the op reads `x[i]` for a scalar `i` (one element of the first axis)."""
    if op.type == "GatherV2":
        return op.attrs.get("axis", 0) == 0 and not op.attrs.get("batch_dims", 0) and \
            op.inputs[1].shape.dims == ()
    return op.attrs.get("spec") == (("dyn", 0),) and len(op.inputs) == 2


def _inside_element(op, inputs):
    """Whether the op indexes within an element (`row[0]`, `row[1:]`) by indices that
    are the same in every iteration, with no array index (which numpy would move)."""
    return op.type == "StridedSlice" and varies(inputs[0]) and \
        not any(map(varies, inputs[1:])) and \
        all(item[0] != "array" for item in op.attrs["spec"])


def _affine(op, inputs):
    """`counter + c`, `c + counter`, `counter - c`, `c - counter` and `counter * 3` (a
    constant) as an Affine; else None."""
    if op.type not in ("Add", "Sub", "Mul") or len(inputs) != 2:
        return None
    a, b = inputs
    if isinstance(b, Affine) and isinstance(a, Invariant) and op.type != "Sub":
        a, b = b, a
    t = op.outputs[0]
    if isinstance(a, Affine) and isinstance(b, Invariant) and b.python is not None:
        c = constant_int(b)
        if op.type in ("Add", "Sub"):
            sign = 1 if op.type == "Add" else -1
            origin = (a.origin[0], a.origin[1] + sign * c) \
                if a.origin is not None and c is not None else None
            return Affine(f"({a.base} {'+' if sign > 0 else '-'} {b.python})", a.step, t,
                          origin)
        if c:
            return Affine(f"({a.base} * {c})", a.step * c, t)
    if op.type == "Sub" and isinstance(a, Invariant) and isinstance(b, Affine) and \
            a.python is not None:
        return Affine(f"({a.python} - {b.base})", -b.step, t)
    return None
