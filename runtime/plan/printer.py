"""The printer: an annotated program (runtime/plan/passes/) as lines of Python.

Contract: `Printer(program)` then `block(program.block, indent)` fills `lines` (the
function body's statements, numbered from 0), `line_ops` (line index -> the op it runs,
for error reports) and `as_numpy(name)` (a value as numpy holds it, for the returned
values). It decides nothing: each record is printed as its annotations say.
- a Const prints nothing (its value is a global);
- a record with an `expression` binds it (the operands formatted in as `modes` asks;
  `wrap` adds the wraparound test; a `fallback` goes in a `try`), or, with `fold`, is
  kept and printed inside the next record's expression instead;
- any other calls its kernel (`ctx` first when the kernel needs it, attributes as
  keywords, `out=` a dying buffer), a `chain` as one blocked loop;
- an inlined If or While (`blocks`) as Python `if`/`else` or `while` around its blocks;
- a `del` after the last reader of each array that dies (rank-0 values get none).
"""

from autograph_py.runtime.plan.fusion import chain, fused_calls
from autograph_py.runtime.plan.passes.naming import literal as literal_source
from autograph_py.runtime.plan.python_scalars import literal, to_numpy, to_python, wrap_line


class Printer:
    def __init__(self, program):
        self.program = program
        self.lines = []
        self.line_ops = {}  # index in self.lines -> the op that line runs
        self.pending = {}  # name -> the source of a folded expression, for its reader

    def line(self, indent, text, op=None):
        if op is not None:
            self.line_ops[len(self.lines)] = op
        self.lines.append("    " * indent + text)

    def as_numpy(self, name):
        """The source of value `name` as numpy holds it (a kernel's argument, a result)."""
        held = self.program.held
        if name not in held:
            return name
        return self.program.numpy_constants.get(name) or to_numpy(name, held[name])

    def operand(self, name, python):
        """The source of input `name` for a reader that wants a Python scalar (`python`
        True), a numpy value (False) or either (None): its folded expression if any."""
        program = self.program
        source = self.pending.pop(name, name)
        held = name in program.held
        if held and python is not False and name in program.constants:
            return literal(program.constants[name])
        if python is None or python == held:
            return source
        if python:
            return to_python(source)
        return self.as_numpy(name) if source == name else to_numpy(source, program.held[name])

    def block(self, block, indent):
        for record in block.records:
            if record.op.type == "Const" or record.in_run:
                continue
            dead = set(record.step.frees) - self.program.scalars
            if record.chain:
                self.chain(record, indent)
                continue
            if record.loop is not None:
                self.loop(record, indent)
            elif record.control:
                self.branch(record, indent)
            elif not self.statement(record, indent, dead):
                continue  # folded into the next record
            if dead:
                self.line(indent, f"del {', '.join(sorted(dead))}")

    def statement(self, record, indent, dead):
        """Print the record, or keep its folded expression (False). An output nobody
        reads is never bound (removed from `dead`)."""
        step, op = record.step, record.op
        expression = record.expression
        if expression is None:
            source, fallback = self.call(record), None
        else:
            operands = [self.operand(name, mode) for name, mode in zip(step.inputs,
                                                                        record.modes)]
            source = expression.source.format(*operands)
            fallback = None if expression.fallback is None else \
                expression.fallback.format(*operands)
            if record.fold:
                self.pending[step.outputs[0]] = f"({source})"
                return False
        single = op.opdef.num_outputs == 1  # else the kernel returns a tuple
        bound = []  # the names the statement binds
        if single and step.outputs[0] in dead:  # never bind what nobody reads
            dead.discard(step.outputs[0])
            statement = fallback or source
        elif single:
            statement = f"{step.outputs[0]} = {source}"
            bound = step.outputs
        elif step.outputs:
            statement = f"{', '.join(step.outputs)}, = {source}"
            bound = step.outputs
        else:
            statement = source
        if fallback is not None and bound:
            self.line(indent, "try:", op)
            self.line(indent + 1, statement, op)
            self.line(indent, "except IndexError:", op)
            self.line(indent + 1, f"{bound[0]} = {fallback}", op)
        else:
            self.line(indent, statement, op)
        if record.wrap and bound:
            line = wrap_line(bound[0], self.program.held[bound[0]], record.wrap)
            if line is not None:
                self.line(indent, line, op)
        if not single:  # a kernel's tuple: its scalars are numpy's
            for name in bound:
                if name in self.program.held and name not in dead:
                    self.line(indent, f"{name} = {to_python(name)}", op)
        return True

    def call(self, record):
        """The kernel call (a bare ufunc's, writing into `out`), as the plan holds its
        value."""
        step, op = record.step, record.op
        args = [self.as_numpy(name) for name in step.inputs]
        if record.ufunc is None:
            args = ["ctx"] * op.opdef.needs_context + args
            if isinstance(record.attrs, str):
                args.append(f"**{record.attrs}")
            else:
                args += [f"{name}={source}" for name, source in record.attrs.items()]
        elif record.out is not None:
            args.append(f"out={record.out}")
        call = f"{record.kernel}({', '.join(args)})"
        # (a kernel of several outputs returns a tuple, even of one: `statement` converts)
        python = op.opdef.num_outputs == 1 and step.outputs[0] in self.program.held
        return to_python(call) if python else call

    def chain(self, record, indent):
        """A chain of element-wise records as one blocked loop filling the last one's
        array (in place of the source when `in_place`)."""
        run = [r.step for r in record.chain]
        c, names, first = chain(run), record.chain_names, run[0].op
        if record.in_place:
            self.line(indent, f"{c.result} = {c.source}", first)
        else:
            shape = literal_source(tuple(first.outputs[0].shape.dims))
            self.line(indent, f"{c.result} = empty({shape}, {names['dtype']})", first)
        flat, source, start, block = (names[part] for part in
                                      ("flat", "source", "start", "block"))
        self.line(indent, f"{flat} = {c.result}.reshape(-1)")
        self.line(indent, f"{source} = {c.source}.reshape(-1)")
        self.line(indent, f"for {start} in range(0, {c.size}, {c.block}):")
        self.line(indent + 1, f"{block} = {flat}[{start}:{start} + {c.block}]")
        kernels = [r.kernel for r in record.chain]
        for step, call in zip(run, fused_calls(run, kernels, block,
                                               f"{source}[{start}:{start} + {c.block}]",
                                               self.as_numpy)):
            self.line(indent + 1, call, step.op)
        links = {step.outputs[0] for step in run[:-1]}  # never bound
        dead = {name for step in run for name in step.frees} - links - self.program.scalars
        self.line(indent, f"del {', '.join(sorted(dead | {flat, source, start, block}))}")

    def assign(self, indent, targets, values, op):
        """`targets = values`, each value converted to how its target is held."""
        pairs = [(t, v) for t, v in zip(targets, values) if t != v]
        if pairs:
            targets = [t for t, _ in pairs]
            values = [self.operand(v, t in self.program.held) for t, v in pairs]
            self.line(indent, f"{', '.join(targets)} = {', '.join(values)}", op)

    def branch(self, record, indent):
        step, op = record.step, record.op
        pred = self.pending.pop(step.inputs[0], step.inputs[0])
        self.line(indent, f"if {pred}:", op)
        for key, block in zip(("then", "else"), record.blocks):
            if key == "else":
                self.line(indent, "else:", op)
            start = len(self.lines)
            self.block(block, indent + 1)
            self.assign(indent + 1, step.outputs, block.outputs, op)
            if len(self.lines) == start:
                self.line(indent + 1, "pass")

    def loop(self, record, indent):
        """The loop variables are the While's own output names: assigned the initial
        values, then each iteration's body outputs."""
        step, op, loop = record.step, record.op, record.loop
        loop_vars = step.outputs
        self.assign(indent, loop_vars, step.inputs[:op.attrs["num_vars"]], op)
        for text in record.vector or ():
            self.line(indent, text, op)
        cond, body = record.blocks
        # (after vectorized lines the loop often has nothing left to run: no view then)
        unless_done = f" if {loop_vars[loop.test]} else None" \
            if record.vector and cond is None else ""
        for name, view in loop.views.items():
            self.line(indent, f"{view} = scalar_view({name}){unless_done}", op)
        if cond is None:  # a rotated loop: the test is a variable
            self.line(indent, f"while {loop_vars[loop.test]}:", op)
        else:
            if loop.limit is None:
                self.line(indent, "while True:", op)
            else:
                self.line(indent, f"{loop.counter} = 0", op)
                self.line(indent, f"while {loop.counter} < {loop.limit}:", op)
            self.block(cond, indent + 1)
            (test,) = cond.outputs
            self.line(indent + 1, f"if not {test}:", op)
            self.line(indent + 2, "break")
        start = len(self.lines)
        self.block(body, indent + 1)
        self.assign(indent + 1, loop_vars, body.outputs, op)
        if loop.limit is not None:
            self.line(indent + 1, f"{loop.counter} += 1")
        elif len(self.lines) == start:
            self.line(indent + 1, "pass")
        if loop.views:
            self.line(indent, f"del {', '.join(loop.views.values())}")

