"""Pass: loops over the elements of a tensor run as array operations (vectorization).

Contract: `run(program)` gives each inlined, rotated While whose iterations depend on
each other only through the update forms of runtime/plan/vectorize/updates.py (folds,
last-hit assignments, appends, TensorArray writes) a `vector` annotation: the lines
(runtime/plan/vectorize/emit.py) the printer puts between the loop variables' initial
values and the loop, which run the iterations in chunks of arrays and leave the loop
nothing to do, or, where a chunk cannot be run exactly, the rest of the iterations to
run one by one. Every While gets `vector_reason`: None when vectorized, else why not
(`Plan.vectorized` lists them; a bug of the pass itself leaves the loop as it is, its
reason starting with INTERNAL_ERROR). A loop nested in another's body is considered alone
when the outer one is not vectorized. Switched off, no loop is.
"""

from autograph_py.runtime.errors import format_location
from autograph_py.runtime.plan.expressions import never_warns
from autograph_py.runtime.plan.passes.records import walk
from autograph_py.runtime.plan.vectorize.emit import emit
from autograph_py.runtime.plan.vectorize.interpret import NotVectorizable, interpret
from autograph_py.runtime.plan.vectorize.updates import forms, roles

INTERNAL_ERROR = "the vectorizer failed"  # (tests look for it: it is a bug)


def run(program):
    if "vectorize" not in program.enabled:
        return
    for record in walk(program.block):
        if record.loop is not None and not _inside_vectorized(program, record):
            try:
                record.vector = _vectorize(program, record)
                if not all(never_warns(r.op) for r in walk(record.blocks[1])
                           if not r.control and r.loop is None):
                    program.uses_errstate = True  # (e.g. a float fold's overflow)
            except NotVectorizable as reason:
                record.vector_reason = str(reason)
            except Exception as error:  # a bug here must cost speed, never the program
                record.vector_reason = f"{INTERNAL_ERROR}: {error!r}"
            program.loops.append(record)
    # (a feed's array kept only for the loops that ended up reading it)
    lines = [line for record in program.loops for line in record.vector or ()]
    program.feed_arrays = {name: kept for name, kept in program.feed_arrays.items()
                           if any(kept in line for line in lines)}


def _inside_vectorized(program, record):
    return any(outer.vector and record in walk(outer.blocks[1]) for outer in program.loops)


def _vectorize(program, record):
    loop = record.loop
    if loop.test is None:
        raise NotVectorizable("its test is not one loop variable (not a rotated loop)")
    if loop.limit is not None:
        raise NotVectorizable("it has maximum_iterations")
    names = record.step.outputs
    found = roles(interpret(program, record, [None if j != loop.test else "test"
                                              for j in range(len(names))]), record)
    outputs = interpret(program, record, found)
    updates = forms(outputs, found, names)
    lines = emit(program, record, outputs, found, updates)
    where = format_location(record.op.location)
    return [f"# vectorized: the loop at {where} runs as array operations, a chunk of "
            "iterations at a time;", "# the loop below runs what they leave", *lines]
