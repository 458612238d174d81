"""The source of a plan's generated function, and the function compiled from it.

Contract: `compile_plan(plan, namer)` returns `(source, function)` where
`function(ctx, feeds)` runs `plan.steps` on the fed values and returns the fetched ones.
Each step is one statement on local variables named after the ops:
- a kernel call (`layer_add = Add(x, layer_square)`): kernels bound under their op type,
  attributes as keyword literals (or named constants), `ctx` first for kernels that need
  it; `Const` values are globals (rank-0 floats as numpy scalars, rank-0 integers and
  bools as literals);
- or an expression that gives the kernel's result (runtime/plan/expressions.py: operators
  on rank-0 numbers, direct indexing, Identity as its input); a pure one read only by
  the next statement is folded into it. Rank-0 integers and bools are held as Python
  scalars (runtime/plan/python_scalars.py: wrapped to their dtype where their bounds can
  leave it, converted to numpy only where a kernel reads them and where they are
  returned); an element of an outer rank-1 integer array read in a loop is read through
  a `scalar_view` (runtime/plan/control.py), numpy's IndexError on a miss;
- or a bare ufunc call, writing into a dying input the plan allocated (`out=`) when it
  has the output's static shape and dtype; a chain of them on a large array becomes one
  blocked loop (runtime/plan/fusion.py);
- `If` and `While` are inlined: a Python `if`/`else` and `while` running their subgraphs'
  steps in this same function, the subgraphs' inputs aliasing the outer values (no plan
  call, no list per iteration). The `While` kernel itself (and so its gradient, which runs
  it in a context that records the body's inputs) still runs the subgraphs' own plans.
A `del` follows the last reader of each intermediate array. One `try/except` maps the
failing line back to its op for the error (`OpError` naming the op and the user's line).
A plan with numpy-scalar operators or bare float ufuncs runs under one
`errstate(all="ignore")`, and
one whose matrix products are all small on one BLAS thread (runtime/blas_threads.py),
both restored on exit.
"""

import keyword
import math
import os
from collections import Counter

import numpy as np
from autograph_py.runtime import blas_threads
from autograph_py.runtime.errors import InvalidArgumentError, OpError, format_location, op_error
from autograph_py.runtime.errstate import IGNORE_ALL, reset_errstate, set_errstate
from autograph_py.runtime.plan.control import IFS, WHILES, ControlFlowWriter
from autograph_py.runtime.plan.expressions import (
    GLOBALS,
    OPERATORS,
    expression,
    is_number_scalar,
    single_index,
    view_read,
)
from autograph_py.runtime.plan.fusion import chain, fused_calls, fusible_run, ufunc_of
from autograph_py.runtime.plan.python_scalars import GLOBALS as PYTHON_GLOBALS
from autograph_py.runtime.plan.python_scalars import (
    RING_OPS,
    dtype_range,
    has_python_form,
    is_python_scalar,
    literal,
    python_expression,
    to_numpy,
    to_python,
    wrap_line,
)

# Generated code gets a file name inside the library, so `errors.user_location()` never
# takes a plan's frame for the user's code.
_FILENAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "<compiled plan>")
_BODY = 2  # the indentation level of the function's body (inside its `try`)


def compile_plan(plan, namer):
    writer = _Writer(namer)
    writer.scalars.update(name for name, t in zip(plan.feed_names, plan.feed_tensors)
                          if t.shape.dims == ())
    writer.designate(plan.feed_names, plan.feed_tensors)
    writer.steps(plan.steps, _BODY, plan.fetch_names)
    lines = ["def run(ctx, feeds):"]
    if plan.feed_names:
        lines.append(f"    {', '.join(plan.feed_names)}, = feeds")
    # A fed rank-0 number is a 0-d array: operators on it would take numpy's ufunc path
    # (0.4 µs) each time, a loop reading it every iteration; its scalar is read once
    # (as a Python int or bool when the plan holds it so).
    for name, t in dict(zip(plan.feed_names, plan.feed_tensors)).items():
        if name in writer.python:
            lines.append(f"    {name} = {to_python(name)}")
        elif name in writer.operands and is_number_scalar(t):
            lines.append(f"    {name} = {name}[()]")
    # (set up, tear down) around the body, in this order
    scopes = [("errstate = set_errstate(IGNORE_ALL)", "reset_errstate(errstate)")
              ] if writer.uses_errstate else []
    if blas_threads.plan_needs_one_thread(writer.ops):
        scopes.append(("blas = one_blas_thread()", "restore_blas_threads(blas)"))
    lines += [f"    {setup}" for setup, _ in scopes]
    lines.append("    try:")
    offset = len(lines)
    lines += writer.lines or ["        pass"]
    lines += ["    except OpError:",
              "        raise",
              "    except Exception as e:",
              "        raise failed(e)"]
    if scopes:
        lines.append("    finally:")
        lines += [f"        {teardown}" for _, teardown in reversed(scopes)]
    lines.append(f"    return [{', '.join(map(writer.as_numpy, plan.fetch_names))}]")
    line_ops = {offset + i + 1: op for i, op in writer.line_ops.items()}

    def failed(e):
        """The error to raise for `e`: an OpError naming the failing op (an
        InvalidArgumentError gets the op and its line appended instead)."""
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code is not code:
            tb = tb.tb_next
        op = line_ops.get(tb.tb_lineno) if tb is not None else None
        if op is None:
            return e
        if isinstance(e, InvalidArgumentError):
            error = type(e)(f"{e}\n  (op '{op.name}' ({op.type}) created at "
                            f"{format_location(op.location)})")
            error.__suppress_context__ = True  # as `raise ... from None`
            return error
        error = op_error(op, e)
        error.__cause__ = e  # as `raise ... from e`
        return error

    namespace = writer.namespace
    namespace.update(GLOBALS)
    namespace.update(PYTHON_GLOBALS)
    namespace.update(OpError=OpError, failed=failed, set_errstate=set_errstate,
                     reset_errstate=reset_errstate, IGNORE_ALL=IGNORE_ALL,
                     one_blas_thread=blas_threads.one_thread,
                     restore_blas_threads=blas_threads.restore)
    source = "\n".join(lines) + "\n"
    exec(compile(source, _FILENAME, "exec"), namespace)
    function = namespace["run"]
    code = function.__code__
    return source, function



MAX_FOLD_DEPTH = 32  # folded expressions nested in one statement, at most

class _Writer(ControlFlowWriter):
    """Lines of the function's body (numbered from 0), the globals they use, and which
    op each line runs."""

    def __init__(self, namer):
        self.namer = namer
        self.namespace = {}
        self.lines = []
        self.line_ops = {}  # index in self.lines -> the op that line runs
        self.constants = {}  # name -> value, for the Const values
        self.uses_errstate = False
        self.ops = []  # every op the function runs, inlined ones included
        self.operands = set()  # the values operator expressions read
        # Rank-0 values: freeing them early saves no memory, so they get no `del` (which
        # would cost time in a loop).
        self.scalars = set()
        # Arrays this plan allocated (ufunc results) that no other name may see (no view of
        # them was taken): buffers a step may write into when their name dies there.
        self.fresh = set()
        self.pending = {}  # name -> (source, op): pure expressions folded into their reader
        self.depth = {}  # name -> how many folded expressions its pending source nests
        # Rank-0 integers and bools, held as Python scalars: name -> numpy dtype
        # (runtime/plan/python_scalars.py); every reader converts by this designation.
        self.python = {}
        # pending integer expressions not yet wrapped to their dtype -> their bounds
        self.unwrapped = {}
        # Bounds of Python integers bound once (not the outputs of an If or While, which
        # are bound in several places, `joins`); any other holds its dtype's range.
        self.ranges = {}
        self.joins = set()
        self.numpy_constants = {}  # a Python-scalar Const's name -> its numpy scalar's name
        self.views = {}  # array name -> its scalar_view's name, in the loop that reads it

    def designate(self, names, tensors):
        self.python.update((name, t.dtype.np_dtype) for name, t in zip(names, tensors)
                           if is_python_scalar(t))

    def as_numpy(self, name):
        """The source of value `name` as numpy holds it (a kernel's argument, a result)."""
        if name not in self.python:
            return name
        return self.numpy_constants.get(name) or to_numpy(name, self.python[name])

    def range_of(self, name):
        """The lowest and highest value of Python integer `name` (None for a bool)."""
        if self.python[name].kind == "b":
            return None
        if name in self.constants:
            return self.constants[name], self.constants[name]
        return self.ranges.get(name) or dtype_range(self.python[name])

    def operand(self, name, indent, python, ring=False):
        """The source of input `name` for a reader that wants a Python scalar (`python`
        True), a numpy value (False) or either (None): its pending expression when it has
        one, wrapped first unless the reader is a `ring` operator too."""
        if name in self.unwrapped and not ring:
            self.materialize([name], indent)
        source = self.pending[name][0] if name in self.pending else name
        held = name in self.python
        if held and python is not False and name in self.constants:
            return literal(self.constants[name])
        if python is None or python == held:
            return source
        if python:
            return to_python(source)
        return self.as_numpy(name) if source == name else to_numpy(source, self.python[name])

    def line(self, indent, text, op=None):
        if op is not None:
            self.line_ops[len(self.lines)] = op
        self.lines.append("    " * indent + text)

    def steps(self, steps, indent, outputs):
        """Write `steps`; `outputs` are the names the block hands on (never folded)."""
        reads = Counter(name for step in steps for name in step.inputs)
        for step in steps:  # Consts write no line: the next step is the next with one
            if step.op.type == "Const":
                self.ops.append(step.op)
                self.step(step, indent)
        steps = [step for step in steps if step.op.type != "Const"]
        i = 0
        while i < len(steps):
            fused = fusible_run(steps, i, reads, outputs)
            if fused:
                self.fused(steps[i:i + fused], indent)
                i += fused
                continue
            step = steps[i]
            self.ops.append(step.op)
            reader = steps[i + 1] if i + 1 < len(steps) else None
            foldable = reader is not None and reader.op.type not in WHILES and all(
                reads[name] == 1 and name in reader.inputs and name not in outputs and
                (reader.op.type not in IFS or reader.inputs.index(name) == 0)
                for name in step.outputs)
            self.step(step, indent, foldable)
            i += 1

    def fused(self, run, indent):
        """A chain of element-wise steps (runtime/plan/fusion.py) as one blocked loop
        filling the last step's array, in place of the source when the source is a
        buffer of this plan that dies at the first step."""
        self.ops += [step.op for step in run]
        for step in run:
            self.designate(step.outputs, step.op.outputs)
        self.materialize([name for step in run for name in step.inputs], indent)
        self.uses_errstate = True  # the ufuncs are called without their warning switch
        kernels = []
        for step in run:
            kernels.append(self.namer.kernel(ufunc_of(step), step.op.type))
            self.namespace[kernels[-1]] = ufunc_of(step)
        c = chain(run)
        first = run[0].op
        if c.source in self.fresh and c.source in run[0].frees:
            self.line(indent, f"{c.result} = {c.source}", first)
        else:
            dtype = self.namer.fresh(f"{c.result}_dtype")
            self.namespace.update({dtype: c.np_dtype, "empty": np.empty})
            shape = _literal(tuple(first.outputs[0].shape.dims))
            self.line(indent, f"{c.result} = empty({shape}, {dtype})", first)
        self.fresh.add(c.result)
        flat, source, start, block = (self.namer.fresh(f"{c.result}_{part}")
                                      for part in ("flat", "source", "start", "block"))
        self.line(indent, f"{flat} = {c.result}.reshape(-1)")
        self.line(indent, f"{source} = {c.source}.reshape(-1)")
        self.line(indent, f"for {start} in range(0, {c.size}, {c.block}):")
        self.line(indent + 1, f"{block} = {flat}[{start}:{start} + {c.block}]")
        for step, call in zip(run, fused_calls(run, kernels, block,
                                               f"{source}[{start}:{start} + {c.block}]",
                                               self.as_numpy)):
            self.line(indent + 1, call, step.op)
        links = {step.outputs[0] for step in run[:-1]}  # never bound
        dead = {name for step in run for name in step.frees} - links - self.scalars
        self.line(indent, f"del {', '.join(sorted(dead | {flat, source, start, block}))}")

    def step(self, step, indent, foldable=False):
        """Write one step. A pure operator expression whose single output is only read by
        the next step (`foldable`) is kept pending and becomes part of that step's
        expression (`if (i % 3) == 0:`), when that step is an expression too."""
        op = step.op
        if op.type == "Const":  # its value is a global of the generated function
            name, value = step.outputs[0], op.attrs["value"]
            if is_number_scalar(op.outputs[0]):
                value = value[()]  # operators on numpy scalars skip the ufunc machinery
            if is_python_scalar(op.outputs[0]):  # and its numpy scalar for kernels
                self.designate(step.outputs, op.outputs)
                self.numpy_constants[name] = self.namer.fresh(f"{name}_numpy")
                self.namespace[self.numpy_constants[name]] = value
                value = value.item()
            self.namespace[name] = self.constants[name] = value
            return
        self.scalars.update(name for name, t in zip(step.outputs, op.outputs)
                            if t.shape.dims == ())
        self.designate(step.outputs, op.outputs)
        if op.type in IFS or op.type in WHILES:
            self.joins.update(step.outputs)
        dead = set(step.frees) - self.scalars
        if op.type in IFS or op.type in WHILES:
            if op.type in WHILES:
                self.materialize(step.inputs, indent)
            (self.inline_if if op.type in IFS else self.inline_while)(step, indent)
            # An output may be an input passed through (a branch that returns it, a loop
            # that ran no iteration): neither is a buffer only one name holds any more.
            self.fresh.difference_update(step.inputs)
            self.fresh.difference_update(step.outputs)
        else:
            written = self.source(step, indent, foldable)
            if written is None:  # folded into the next step
                return
            source, wrap_bounds, fallback = written
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
            if wrap_bounds and bound:
                self.wrap(bound[0], wrap_bounds, indent, op)
            if not single:  # a kernel's tuple: its scalars are numpy's
                for name in bound:
                    if name in self.python and name not in dead:
                        self.line(indent, f"{name} = {to_python(name)}", op)
        if dead:
            self.line(indent, f"del {', '.join(sorted(dead))}")

    def source(self, step, indent, foldable=False):
        """(the right-hand side, the bounds of an integer to wrap or None, what to evaluate
        instead on an IndexError or None) for a step that is neither If nor While, or
        None when it is kept pending to be folded into the next step."""
        op = step.op
        ufunc = ufunc_of(step)  # a float one without its warning switch: the plan has one
        kernel = self.namer.kernel(ufunc or step.kernel, op.type)
        self.namespace[kernel] = ufunc or step.kernel
        folded = self.expression(step, kernel, indent)
        if ufunc is not None and ufunc is not step.kernel:  # float ones warn on inf/nan
            self.uses_errstate = True
        if ufunc is None or folded is not None:
            # A kernel or an expression may return a view of an input (reshape,
            # transpose, a slice, identity): the input's buffer is no longer one only its
            # own name holds, so no later step may write into it.
            self.fresh.difference_update(step.inputs)
        if folded is None:
            self.materialize(step.inputs, indent)
            call = self.ufunc_call(step, kernel) if ufunc is not None else \
                f"{kernel}({', '.join(self.arguments(step))})"
            python = len(step.outputs) == 1 and step.outputs[0] in self.python
            return (to_python(call) if python else call), None, None
        for name in step.inputs:
            self.pending.pop(name, None)
            self.unwrapped.pop(name, None)
        if op.type in OPERATORS:
            self.operands.update(step.inputs)
        depth = 1 + max((self.depth.pop(name, 0) for name in step.inputs), default=0)
        # Python's parser takes at most 200 nested parentheses: a long chain of folded
        # expressions (250 adds in a row) is bound to a name every MAX_FOLD_DEPTH steps.
        if folded.pure and foldable and depth < MAX_FOLD_DEPTH:
            self.pending[step.outputs[0]] = (f"({folded.source})", op)
            self.depth[step.outputs[0]] = depth
            if folded.unwrapped:
                self.unwrapped[step.outputs[0]] = folded.bounds
            return None
        return folded.source, folded.bounds if folded.unwrapped else None, folded.fallback

    def expression(self, step, kernel, indent):
        """The step as an expression giving its output as this plan holds it (a Python
        scalar for a Python-scalar output), or None for a kernel call."""
        op = step.op
        output = step.outputs[0] if len(step.outputs) == 1 else None
        if output in self.python and has_python_form(op):
            args = [self.operand(name, indent, True, op.type in RING_OPS)
                    for name in step.inputs]
            folded = python_expression(op, args, kernel, list(map(self.range_of, step.inputs)),
                                       self.constants.get(step.inputs[-1]))
            if folded.bounds and output not in self.joins:
                self.ranges[output] = folded.bounds
            return folded
        if op.type == "Identity":  # an alias: held as its input is, unless that differs
            return expression(op, [self.operand(step.inputs[0], indent, output in self.python)],
                              kernel, self.constants)
        if op.type not in OPERATORS and op.type not in ("GatherV2", "StridedSlice"):
            return None
        # numpy values (numpy scalars for operators; indices may be Python ints)
        args = [self.operand(name, indent, None if i and op.type not in OPERATORS else False)
                for i, name in enumerate(step.inputs)]
        folded = expression(op, args, kernel, self.constants, scalar_item=output in self.python)
        if folded is not None and op.type in OPERATORS:  # numpy scalars warn on overflow
            self.uses_errstate = True
        view = self.views.get(step.inputs[0])
        index = single_index(op, args) if folded is not None and view else None
        if index is not None and output in self.python:
            return view_read(op, view, index, folded)
        return folded

    def materialize(self, names, indent):
        """Bind the pending values among `names` (wrapped): their reader takes names."""
        for name in names:
            if name in self.pending:
                source, op = self.pending.pop(name)
                self.depth.pop(name, None)
                self.line(indent, f"{name} = {source[1:-1]}", op)
                if name in self.unwrapped:
                    self.wrap(name, self.unwrapped.pop(name), indent, op)

    def wrap(self, name, bounds, indent, op):
        """Wrap integer `name` (whose exact value lies in `bounds`) to its dtype."""
        line = wrap_line(name, self.python[name], bounds)
        if line is not None:
            self.line(indent, line, op)
        self.ranges.pop(name, None)  # wrapped: anywhere in its dtype's range

    def ufunc_call(self, step, ufunc):
        """`ufunc(a, b)`, writing into a dying input (`out=a`) that this plan allocated
        and that has the output's static shape and dtype."""
        args = [self.as_numpy(name) for name in step.inputs]
        output = step.op.outputs[0]
        if _fully_known(output) and output.shape.rank:
            self.fresh.add(step.outputs[0])  # a ufunc's result is a new array
            for name, t in zip(step.inputs, step.op.inputs):
                if name in self.fresh and name in step.frees and t.shape == output.shape \
                        and t.dtype == output.dtype:
                    args.append(f"out={name}")
                    break
        return f"{ufunc}({', '.join(args)})"

    def arguments(self, step):
        """The call's arguments: ctx, the inputs, the attributes as keyword arguments."""
        op = step.op
        args = (["ctx"] if op.opdef.needs_context else []) + \
            [self.as_numpy(name) for name in step.inputs]
        label = step.outputs[0] if step.outputs else op.type
        if not all(name.isidentifier() and not keyword.iskeyword(name) for name in op.attrs):
            attrs = self.namer.fresh(f"{label}_attrs")
            self.namespace[attrs] = op.attrs
            return args + [f"**{attrs}"]
        for name, value in op.attrs.items():
            literal = _literal(value)
            if literal is None:
                literal = self.namer.fresh(f"{label}_{name}")
                self.namespace[literal] = value
            args.append(f"{name}={literal}")
        return args


def _fully_known(tensor):
    dims = tensor.shape.dims
    return dims is not None and None not in dims


def _literal(value):
    """Python source for `value` when it is a plain constant (ints, strings, tuples of
    them...), else None."""
    if value is None or type(value) in (bool, int, str):
        return repr(value)
    if type(value) is float:
        return repr(value) if math.isfinite(value) else None
    if type(value) is tuple:
        items = [_literal(v) for v in value]
        if None not in items:
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    return None

