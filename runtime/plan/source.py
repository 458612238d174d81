"""The source of a plan's generated function, and the function compiled from it.

Contract: `compile_plan(plan, namer, passes)` returns `(source, function)` where
`function(ctx, feeds)` runs `plan.steps` on the fed values and returns the fetched ones.
The passes named in `passes` (runtime/plan/passes/: inlining of If/While, Python scalars
and scalar views, fusion, expressions and folding with integer wraparound, buffer reuse,
loop variable names) annotate the steps; runtime/plan/printer.py prints them as the
function's body, one statement per step on local variables named after the ops. This
module adds the frame around it: the feeds unpacked (a fed rank-0 number read as a
scalar once: a Python int or bool where the plan holds one, else a numpy scalar where
operators read it), one `try/except` that maps the failing line back to its op for the
error (`OpError` naming the op and the user's line), the fetched values returned as numpy
holds them. A plan with numpy-scalar operators or bare float ufuncs runs under one
`errstate(all="ignore")`, and one whose matrix products are all small on one BLAS thread
(runtime/blas_threads.py), both restored on exit.
"""

import os

from autograph_py.runtime import blas_threads
from autograph_py.runtime.errors import InvalidArgumentError, OpError, format_location, op_error
from autograph_py.runtime.errstate import IGNORE_ALL, reset_errstate, set_errstate
from autograph_py.runtime.plan.expressions import GLOBALS, is_number_scalar
from autograph_py.runtime.plan.passes.pipeline import OPTIONAL, annotate
from autograph_py.runtime.plan.passes.records import walk
from autograph_py.runtime.plan.printer import Printer
from autograph_py.runtime.plan.python_scalars import GLOBALS as PYTHON_GLOBALS
from autograph_py.runtime.plan.python_scalars import to_python

# Generated code gets a file name inside the library, so `errors.user_location()` never
# takes a plan's frame for the user's code.
_FILENAME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "<compiled plan>")
_BODY = 2  # the indentation level of the function's body (inside its `try`)


def compile_plan(plan, namer, passes=OPTIONAL):
    program = annotate(plan, namer, passes)
    plan.vectorized = [(record.op, record.vector_reason) for record in program.loops]
    writer = Printer(program)
    writer.block(program.block, _BODY)
    lines = ["def run(ctx, feeds):"]
    if plan.feed_names:
        lines.append(f"    {', '.join(plan.feed_names)}, = feeds")
    # A fed rank-0 number is a 0-d array: operators on it would take numpy's ufunc path
    # (0.4 µs) each time, a loop reading it every iteration; its scalar is read once
    # (as a Python int or bool when the plan holds it so).
    # (a vectorized loop's kernels read the array itself: a ufunc takes a 0-d array faster
    # than a scalar)
    for name, kept in program.feed_arrays.items():
        lines.append(f"    {kept} = {name}")
    for name, t in dict(zip(plan.feed_names, plan.feed_tensors)).items():
        if name in program.held:
            lines.append(f"    {name} = {to_python(name)}")
        elif name in program.operands and is_number_scalar(t):
            lines.append(f"    {name} = {name}[()]")
    # (set up, tear down) around the body, in this order
    scopes = [("errstate = set_errstate(IGNORE_ALL)", "reset_errstate(errstate)")
              ] if program.uses_errstate else []
    if blas_threads.plan_needs_one_thread([record.op for record in walk(program.block)]):
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

    namespace = program.namespace
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

