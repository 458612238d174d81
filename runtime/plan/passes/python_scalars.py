"""Pass: rank-0 integers and bools held as Python scalars; Const values; scalar views.

Contract: `run(program)` fills `program.held` (name -> numpy dtype of each value held as a
Python int or bool, runtime/plan/python_scalars.py says why and how the edges convert),
`program.scalars` (every rank-0 value: none gets a `del`), `program.constants` (a Const's
value as the function holds it: a Python scalar, a numpy scalar for other rank-0 numbers,
else the array; a global of the function, with `numpy_constants` naming a held one's
numpy scalar for kernels), and for each inlined While the `scalar_view`s its body reads
elements of outer rank-1 integer or bool arrays through (`Loop.views`; a memoryview, an
element as a Python scalar in 26 ns), which the records reading them get as `view`.
Switched off, every value is held as numpy holds it and no view is made.
"""

from autograph_py.runtime.plan.expressions import is_number_scalar
from autograph_py.runtime.plan.passes.records import SCALAR_INDEXING


def run(program):
    plan = program.plan
    for name, t in zip(plan.feed_names, plan.feed_tensors):
        if t.shape.dims == ():
            program.scalars.add(name)
        if program.holds(t):
            program.held[name] = t.dtype.np_dtype
    _block(program, program.block, {})


def _block(program, block, views):
    for record in block.records:  # Consts first, as the printer binds them
        if record.op.type == "Const":
            _const(program, record)
    for record in block.records:
        if record.op.type == "Const":
            continue
        for name, t in zip(record.step.outputs, record.op.outputs):
            if t.shape.dims == ():
                program.scalars.add(name)
            if program.holds(t):
                program.held[name] = t.dtype.np_dtype
        if record.step.inputs:
            record.view = views.get(record.step.inputs[0])
        if record.loop is not None:
            record.loop.views = _open_views(program, record, views)
            views = {**views, **record.loop.views}
        for inner in record.blocks:
            if inner is not None:
                _block(program, inner, views)
        if record.loop is not None:
            views = {name: view for name, view in views.items()
                     if name not in record.loop.views}


def _const(program, record):
    op, name = record.op, record.step.outputs[0]
    value = op.attrs["value"]
    if is_number_scalar(op.outputs[0]):
        value = value[()]  # operators on numpy scalars skip the ufunc machinery
    if program.holds(op.outputs[0]):  # and its numpy scalar for kernels
        program.held[name] = op.outputs[0].dtype.np_dtype
        numpy_name = program.numpy_constants[name] = program.namer.fresh(f"{name}_numpy")
        program.namespace[numpy_name] = value
        value = value.item()
    program.namespace[name] = program.constants[name] = value


def _open_views(program, record, views):
    """A view of each outer rank-1 integer or bool array the loop's body reads one
    element of (`x[i]`) that no enclosing loop has a view of already."""
    attrs = record.op.attrs
    body = attrs["body_graph"]
    captured = record.step.inputs[attrs["num_vars"]:]
    inputs = [None] * attrs["num_vars"] + [captured[i] for i in attrs["body_indices"]]
    indexed = {id(o.inputs[0]) for o in body.get_operations()
               if o.type in SCALAR_INDEXING and o.inputs[0].shape.rank == 1 and
               program.holds(o.outputs[0])}
    opened = {}
    for t, name in zip(body.inputs, inputs):
        if id(t) in indexed and name is not None and name not in views and \
                name not in opened:
            opened[name] = program.namer.fresh(f"{name}_view")
    return opened
