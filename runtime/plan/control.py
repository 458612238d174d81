"""Inlining `If` and `While` into a plan's generated function.

Contract: `ControlFlowWriter` is the part of the plan writer (runtime/plan/source.py)
that writes an `If` step as a Python `if`/`else` and a `While` step as a Python `while`
whose blocks run the subgraphs' steps, scheduled with the writer's namer so their values
are locals of the same function:
- a subgraph's inputs alias the enclosing values (never freed inside); a branch's value
  made for one output is named as the `If`'s output, others are assigned to it;
- the loop variables are the `While`'s own output names, assigned the initial values and
  then each iteration's body outputs; a rotated loop (its condition graph forwards a
  loop variable) tests that variable, `maximum_iterations` becomes a counter, any other
  condition graph runs at the top of each iteration and `break`s.
The host class provides `namer`, `line(indent, text, op)`, `steps(steps, indent,
outputs)`, `pending`, `materialize(names, indent)`, `python` (the names held as Python
scalars), `operand(name, indent, python)` and `views`.
- Before a loop, each outer rank-1 integer or bool array whose elements the body reads
  gets a `scalar_view` (a memoryview: an element as a Python scalar in 26 ns); the body
  reads through it, falling back to numpy for numpy's IndexError.
"""

from collections import Counter

from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.plan.python_scalars import is_python_scalar
from autograph_py.runtime.plan.schedule import forwarded_input, schedule

IFS = frozenset({"If", "StatefulIf"})
SCALAR_INDEXING = frozenset({"GatherV2", "StridedSlice"})
WHILES = frozenset({"While"})


class ControlFlowWriter:
    def subgraph(self, graph, input_names, indent, output_names=(), loop=False):
        """Write the steps of `graph` with its inputs bound to `input_names` (kept alive:
        they are the enclosing function's values); return its outputs' names. A value
        the subgraph makes for one output only is named `output_names[i]` directly; in a
        `loop` body (output i is the next value of input i) only where that is safe."""
        names = {id(t): name for t, name in zip(graph.inputs, input_names)}
        fed = {id(t): t for t in graph.inputs}
        ops = ops_reaching(graph.outputs, graph.stateful_ops, fed, control_inputs=True)
        made = {id(t) for op in ops if op.type != "Const" for t in op.outputs}  # (globals)
        counts = Counter(map(id, graph.outputs))
        # (A value held otherwise than the output, a Python or a numpy scalar, is
        # converted by `assign`.)
        rename = {id(t): name for i, (t, name) in enumerate(zip(graph.outputs, output_names))
                  if id(t) in made and counts[id(t)] == 1 and
                  is_python_scalar(t) == (name in self.python) and
                  (not loop or _replaces_in_place(ops, graph, i))}
        steps, outputs = schedule(ops, names, self.namer, graph.outputs, keep=input_names,
                                  rename=rename)
        self.steps(steps, indent, outputs)
        return outputs

    def assign(self, indent, targets, values, op):
        """`targets = values`, each value converted to how its target is held."""
        pairs = [(t, v) for t, v in zip(targets, values) if t != v]
        if pairs:
            targets, values = zip(*pairs)
            values = [self.operand(v, indent, t in self.python) for t, v in pairs]
            self.line(indent, f"{', '.join(targets)} = {', '.join(values)}", op)

    def inline_if(self, step, indent):
        op, attrs = step.op, step.op.attrs
        pred, captured = step.inputs[0], step.inputs[1:]
        if pred in self.pending:
            pred = self.pending.pop(pred)[0]
        self.line(indent, f"if {pred}:", op)
        for key in ("then", "else"):
            if key == "else":
                self.line(indent, "else:", op)
            start = len(self.lines)
            inputs = [captured[i] for i in attrs[f"{key}_indices"]]
            outputs = self.subgraph(attrs[f"{key}_graph"], inputs, indent + 1, step.outputs)
            self.assign(indent + 1, step.outputs, outputs, op)
            if len(self.lines) == start:
                self.line(indent + 1, "pass")

    def inline_while(self, step, indent):
        """The loop variables are the While's own output names: assigned the initial
        values, then each iteration's body outputs."""
        op, attrs = step.op, step.op.attrs
        num_vars = attrs["num_vars"]
        loop_vars, captured = step.outputs, step.inputs[num_vars:]
        self.assign(indent, loop_vars, step.inputs[:num_vars], op)
        cond, body = attrs["cond_graph"], attrs["body_graph"]
        limit = attrs["maximum_iterations"]
        outer = [captured[i] for i in attrs["body_indices"]]
        views = self.open_views(body, [None] * num_vars + outer, indent, op)
        test = forwarded_input(cond) if limit is None else None
        if test is not None and test < num_vars:  # a rotated loop: the test is a variable
            self.line(indent, f"while {loop_vars[test]}:", op)
        else:
            if limit is None:
                self.line(indent, "while True:", op)
            else:
                counter = self.namer.fresh(f"{loop_vars[0]}_iterations")
                self.line(indent, f"{counter} = 0", op)
                self.line(indent, f"while {counter} < {int(limit)}:", op)
            inputs = list(loop_vars) + [captured[i] for i in attrs["cond_indices"]]
            (test_name,) = self.subgraph(cond, inputs, indent + 1)
            self.line(indent + 1, f"if not {test_name}:", op)
            self.line(indent + 2, "break")
        inputs = list(loop_vars) + [captured[i] for i in attrs["body_indices"]]
        start = len(self.lines)
        outputs = self.subgraph(body, inputs, indent + 1, loop_vars, loop=True)
        self.assign(indent + 1, loop_vars, outputs, op)
        if limit is not None:
            self.line(indent + 1, f"{counter} += 1")
        elif len(self.lines) == start:
            self.line(indent + 1, "pass")
        if views:
            self.line(indent, f"del {', '.join(views.values())}")
            for name in views:
                del self.views[name]

    def open_views(self, body, inputs, indent, op):
        """Before a loop: a `scalar_view` of each outer rank-1 integer or bool array the
        body reads one element of (`x[i]`); the loop reads elements through it."""
        indexed = {id(o.inputs[0]) for o in body.get_operations()
                   if o.type in SCALAR_INDEXING and o.inputs[0].shape.rank == 1 and
                   is_python_scalar(o.outputs[0])}
        views = {}
        for t, name in zip(body.inputs, inputs):
            if id(t) in indexed and name is not None and name not in self.views and \
                    name not in views:
                views[name] = self.namer.fresh(f"{name}_view")
                self.line(indent, f"{views[name]} = scalar_view({name})", op)
        self.views.update(views)
        return views


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
