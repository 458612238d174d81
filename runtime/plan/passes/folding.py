"""Pass: operators and direct indexing in place of kernel calls, folded into their one
reader, and where integers held as Python ints are wrapped to their dtype.

Contract: `run(program)` gives each record it can the `Expression` computing its output
(runtime/plan/expressions.py for numpy scalars and indexing, python_scalars.py for
Python ints and bools), its operands written `{0}`, `{1}`... and `modes` saying how each
is wanted (Python, numpy, as held); the printer formats them. A pure expression whose
outputs only the next record reads, when that record is an expression too (or an If
testing it), gets `fold`: it becomes part of its reader (`if (i % 3) == 0:`), at most
MAX_FOLD_DEPTH deep (Python's parser takes 200 nested parentheses). An integer that can
leave its dtype's range gets `wrap` (its bounds) where it is bound, after any chain of
`+ - *` and negation folded into one expression (they commute with the wraparound), so
`3 * n + 1` is tested once; the bounds of each integer follow from its inputs'.
Switched off ("expressions"), every record calls its kernel; with "folding" off, every
expression is bound to its own name.
"""

from collections import Counter

import numpy as np
from autograph_py.runtime.plan.expressions import (
    OPERATORS,
    Expression,
    expression,
    never_warns,
    reads_a_feed,
    single_index,
    static_value,
    view_read,
)
from autograph_py.runtime.plan.passes.records import IFS, SCALAR_INDEXING, WHILES, walk
from autograph_py.runtime.plan.python_scalars import (
    RING_OPS,
    dtype_range,
    has_python_form,
    literal,
    python_expression,
)

MAX_FOLD_DEPTH = 32  # folded expressions nested in one statement, at most


def run(program):
    _Folding(program).block(program.block)


class _Folding:
    def __init__(self, program):
        self.program = program
        self.pending = None  # the record whose expression its reader may take
        self.depth = {}  # name -> how many folded expressions its pending source nests
        # Bounds of Python integers bound once (not the outputs of an If or While, which
        # are bound in several places); any other holds its dtype's range.
        self.ranges = {}
        self.joins = {name for r in walk(program.block) if r.op.type in IFS | WHILES
                      for name in r.step.outputs}
        self.fed = {id(t) for t in program.plan.feed_tensors}

    def block(self, block):
        reads = Counter(name for record in block.records for name in record.step.inputs)
        records = [r for r in block.records if r.op.type != "Const"]
        for i, record in enumerate(records):
            if record.in_run:
                continue
            if record.chain or record.op.type in WHILES:
                self.unfold()
                for inner in record.blocks:
                    if inner is not None:
                        self.block(inner)
                continue
            if record.control:  # an If: a pending value is its test
                self.pending = None
                for inner in record.blocks:
                    self.block(inner)
                continue
            reader = records[i + 1] if i + 1 < len(records) else None
            foldable = reader is not None and reader.op.type not in WHILES and all(
                reads[name] == 1 and name in reader.step.inputs and
                name not in block.outputs and
                (reader.op.type not in IFS or reader.step.inputs.index(name) == 0)
                for name in record.step.outputs)
            self.step(record, foldable)

    def unfold(self):
        """The pending record's reader cannot take its expression: bound to its name."""
        record, self.pending = self.pending, None
        if record is not None:
            record.fold = False
            self.depth.pop(record.step.outputs[0], None)
            if record.expression.unwrapped:
                self.set_wrap(record)

    def set_wrap(self, record):
        record.wrap = record.expression.bounds
        self.ranges.pop(record.step.outputs[0], None)  # wrapped: anywhere in its dtype's

    def step(self, record, foldable):
        program, step, op = self.program, record.step, record.op
        if record.ufunc is not None and record.ufunc is not step.kernel and \
                not never_warns(op):
            program.uses_errstate = True  # float ones warn on inf/nan: the plan ignores it
        folded = self.expression(record) if "expressions" in program.enabled else None
        if folded is None:
            self.unfold()
            return
        record.expression = folded
        self.pending = None  # taken into this expression
        if op.type in OPERATORS:
            program.operands.update(step.inputs)
        depth = 1 + max((self.depth.pop(name, 0) for name in step.inputs), default=0)
        if folded.pure and foldable and depth < MAX_FOLD_DEPTH and \
                "folding" in program.enabled:
            record.fold = True
            self.pending = record
            self.depth[step.outputs[0]] = depth
        elif folded.unwrapped:
            self.set_wrap(record)

    def operands_wanted(self, record, modes, ring=False):
        """Record how `record` wants its operands; a pending integer not yet wrapped is
        bound (wrapped) first unless this reader is a `ring` operator too."""
        record.modes = tuple(modes)
        pending = self.pending
        if pending is not None and pending.expression.unwrapped and not ring and \
                pending.step.outputs[0] in record.step.inputs:
            self.unfold()
        return [f"{{{i}}}" for i in range(len(modes))]

    def zero_fill(self, record):
        """Whether a Fill makes zeros (a constant 0, not -0.0) of a static shape: numpy's
        zeroed allocation, without the kernel's checks (the shape rule made them)."""
        out = record.op.outputs[0]
        value = self.program.constants.get(record.step.inputs[0])
        return out.shape.is_fully_defined() and value is not None and \
            np.ndim(value) == 0 and value == 0 and not np.signbit(value) and \
            not reads_a_feed(record.op, self.fed)  # (a fed shape is not the static one)

    def range_of(self, name):
        """The lowest and highest value of Python integer `name` (None for a bool)."""
        program = self.program
        if program.held[name].kind == "b":
            return None
        if name in program.constants:
            return program.constants[name], program.constants[name]
        return self.ranges.get(name) or dtype_range(program.held[name])

    def expression(self, record):
        """The record's Expression giving its output as the plan holds it (a Python
        scalar for a held output), or None for a kernel call."""
        program, step, op = self.program, record.step, record.op
        held = program.held
        output = step.outputs[0] if len(step.outputs) == 1 else None
        inputs = step.inputs
        value = static_value(op, self.fed)
        if value is not None:  # (`shape(x)[0]` of a known length is that length)
            # (bound to its name, never folded: a reader that is static too reads no
            # operand, so nothing would bind this one)
            self.operands_wanted(record, [])
            if output in held:
                value = value.item()
                bounds = None if isinstance(value, bool) else (value, value)
                if bounds:
                    self.ranges[output] = bounds
                return Expression(literal(value), False, bounds=bounds)
            name = program.namer.fresh(f"{output}_value")
            program.namespace[name] = value
            return Expression(name, False)
        if op.type == "Fill" and self.zero_fill(record):
            self.operands_wanted(record, [])
            name = program.namer.fresh(f"{output}_dtype")
            program.namespace[name] = op.outputs[0].dtype.np_dtype
            zeros = program.namer.kernel(np.zeros, "zeros")
            program.namespace[zeros] = np.zeros
            return Expression(f"{zeros}({op.outputs[0].shape.dims!r}, {name})", False)
        if output in held and has_python_form(op):
            args = self.operands_wanted(record, [True] * len(inputs), op.type in RING_OPS)
            folded = python_expression(op, args, record.kernel,
                                       list(map(self.range_of, inputs)),
                                       program.constants.get(inputs[-1]))
            if folded.bounds and output not in self.joins:
                self.ranges[output] = folded.bounds
            return folded
        if op.type == "Identity":  # an alias: held as its input is, unless that differs
            args = self.operands_wanted(record, [output in held])
            return expression(op, args, record.kernel)
        if op.type not in OPERATORS and op.type not in SCALAR_INDEXING:
            return None
        # numpy values (numpy scalars for operators; indices may be Python ints)
        args = self.operands_wanted(record, [None if i and op.type not in OPERATORS
                                             else False for i in range(len(inputs))])
        divisor = program.constants.get(inputs[1]) \
            if len(inputs) > 1 and inputs[1] not in held else None
        folded = expression(op, args, record.kernel, divisor, scalar_item=output in held)
        if folded is not None and op.type in OPERATORS and not never_warns(op, arrays=False):
            program.uses_errstate = True  # numpy scalars warn on overflow
        index = single_index(op, args) if folded is not None and record.view else None
        if index is not None and output in held:
            return view_read(op, record.view, index, folded)
        return folded
