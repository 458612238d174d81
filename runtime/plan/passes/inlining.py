"""Pass: `If` and `While` inlined into the plan's generated function.

Contract: `run(program)` makes `program.block` from the plan's steps; an If or While step
(when the pass is on) gets the blocks of its subgraphs, scheduled with the plan's namer
so their values are locals of the same function:
- a subgraph's inputs alias the enclosing values (never freed inside); a value a branch
  makes for one output only is named as the If's output (others are assigned to it);
- a While's loop variables are its own outputs' names, assigned the initial values and
  then each iteration's body outputs; a body value is bound to its loop variable directly
  where that is safe (`_replaces_in_place`), saving a copy per iteration. A rotated loop
  (its condition graph only forwards a loop variable) has no condition block and tests
  that variable; `maximum_iterations` becomes a counter.
Switched off, If and While are kernel calls running their subgraphs' own plans.
"""

from collections import Counter

from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.plan.passes import naming
from autograph_py.runtime.plan.passes.records import IFS, WHILES, Block, Loop, Record
from autograph_py.runtime.plan.schedule import forwarded_input, schedule


def run(program):
    plan = program.plan
    program.block = _block(program, plan.steps, plan.fetch_names)


def _block(program, steps, outputs):
    records = []
    for step in steps:
        record = Record(step)
        if "inlining" in program.enabled and step.op.type in IFS:
            _inline_if(program, record)
        elif "inlining" in program.enabled and step.op.type in WHILES:
            _inline_while(program, record)
        records.append(record)
    return Block(records, list(outputs))


def _inline_if(program, record):
    step, attrs = record.step, record.op.attrs
    captured = step.inputs[1:]
    record.blocks = tuple(
        _subgraph(program, attrs[f"{key}_graph"], [captured[i] for i in attrs[f"{key}_indices"]],
                  step.outputs, record.op.outputs)
        for key in ("then", "else"))


def _inline_while(program, record):
    step, attrs = record.step, record.op.attrs
    num_vars, limit = attrs["num_vars"], attrs["maximum_iterations"]
    loop_vars, captured = list(step.outputs), step.inputs[num_vars:]
    cond = attrs["cond_graph"]
    test = forwarded_input(cond) if limit is None else None
    if test is not None and test >= num_vars:
        test = None
    counter = None if limit is None else program.namer.fresh(f"{loop_vars[0]}_iterations")
    cond_block = None
    if test is None:
        cond_block = _subgraph(program, cond, loop_vars + [captured[i] for i in
                                                            attrs["cond_indices"]])
    body = _subgraph(program, attrs["body_graph"],
                     loop_vars + [captured[i] for i in attrs["body_indices"]],
                     step.outputs, record.op.outputs, loop=True)
    record.blocks = (cond_block, body)
    record.loop = Loop(test, None if limit is None else int(limit), counter)


def _subgraph(program, graph, input_names, output_names=(), output_tensors=(), loop=False):
    """The block running `graph` with its inputs bound to `input_names` (kept alive: they
    are the enclosing function's values). A value the subgraph makes for one output only
    is named `output_names[i]` directly; in a `loop` body (output i is the next value of
    input i) only where that is safe."""
    names = {id(t): name for t, name in zip(graph.inputs, input_names)}
    fed = {id(t): t for t in graph.inputs}
    ops = ops_reaching(graph.outputs, graph.stateful_ops, fed, control_inputs=True)
    made = {id(t) for op in ops if op.type != "Const" for t in op.outputs}  # (globals)
    counts = Counter(map(id, graph.outputs))
    # (A value held otherwise than the output, a Python or a numpy scalar, is converted
    # where it is assigned.)
    rename = {id(t): name for i, (t, name, outer) in enumerate(zip(
                  graph.outputs, output_names, output_tensors))
              if id(t) in made and counts[id(t)] == 1 and
              program.holds(t) == program.holds(outer) and
              (not loop or _replaces_in_place(ops, graph, i))}
    if "loop_names" in program.enabled:
        rename.update(naming.loop_variable_names(program.namer, ops, skip=rename.keys() | fed))
    steps, outputs = schedule(ops, names, program.namer, graph.outputs, keep=input_names,
                              rename=rename)
    return _block(program, steps, outputs)


def _replaces_in_place(ops, body, i):
    """Whether a loop body's output i may be bound to the name of input i (its current
    value) when it is made, saving the copy at the end of each iteration: a rank-0 value
    made by an op after which nothing reads input i, nor the copy into the loop variables
    (no output is input i). The op may read it itself when it is one expression
    (evaluated before the binding), not an inlined If or While."""
    new, old = body.outputs[i], body.inputs[i]
    if new.shape.dims != () or any(t is old for t in body.outputs):
        return False  # (the copy at the end reads the old value: `a, b = b, a + b`)
    producer = next(k for k, op in enumerate(ops) if any(t is new for t in op.outputs))
    readers = [k for k, op in enumerate(ops) if any(t is old for t in op.inputs)]
    return all(k <= producer for k in readers) and (
        producer not in readers or ops[producer].type not in IFS | WHILES)
