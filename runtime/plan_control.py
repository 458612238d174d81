"""Inlining `If` and `While` into a plan's generated function.

Contract: `ControlFlowWriter` is the part of the plan writer (runtime/plan_source.py)
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
outputs)`, `pending` and `materialize(names, indent)`.
"""

from collections import Counter

from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.plan_schedule import forwarded_input, schedule

IFS = frozenset({"If", "StatefulIf"})
WHILES = frozenset({"While", "StatefulWhile"})


class ControlFlowWriter:
    def subgraph(self, graph, input_names, indent, output_names=()):
        """Write the steps of `graph` with its inputs bound to `input_names` (kept alive:
        they are the enclosing function's values); return its outputs' names. A value
        the subgraph makes for one output only is named `output_names[i]` directly."""
        names = {id(t): name for t, name in zip(graph.inputs, input_names)}
        fed = {id(t): t for t in graph.inputs}
        ops = ops_reaching(graph.outputs, graph.stateful_ops, fed, control_inputs=True)
        made = {id(t) for op in ops if op.type != "Const" for t in op.outputs}  # (globals)
        counts = Counter(map(id, graph.outputs))
        rename = {id(t): name for t, name in zip(graph.outputs, output_names)
                  if id(t) in made and counts[id(t)] == 1}
        steps, outputs = schedule(ops, names, self.namer, graph.outputs, keep=input_names,
                                  rename=rename)
        self.steps(steps, indent, outputs)
        return outputs

    def assign(self, indent, targets, values, op):
        pairs = [(t, v) for t, v in zip(targets, values) if t != v]
        if pairs:
            targets, values = zip(*pairs)
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
        outputs = self.subgraph(body, inputs, indent + 1)
        self.assign(indent + 1, loop_vars, outputs, op)
        if limit is not None:
            self.line(indent + 1, f"{counter} += 1")
        elif len(self.lines) == start:
            self.line(indent + 1, "pass")
