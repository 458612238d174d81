"""The executor: compile a plan for (graph, fetches, feeds) once, then run it many times.

Contract:
- `Plan(graph, fetch_tensors, target_ops, feed_tensors)` selects only the ops the fetches
  and targets need (a fed tensor prunes its producer), in graph (topological) order,
  names every value it passes around, and records when each is last read so `run` frees
  intermediates as soon as they are dead.
- `Plan.run(ctx, feed_values)` returns the fetched values. A kernel that raises is
  reported as an `OpError` naming the op, its type, its inputs and the user's source line.
- `Plan.code` is the Python source of the function the plan runs (`Plan.function`), for
  reading exactly what runs; `Plan.steps` are the `Step`s it was generated from.
  `passes` names the compiler's optional passes to run (runtime/plan/passes/pipeline.py:
  all by default, `default_passes()`; tests switch them off one by one against a
  reference interpreter). `Plan.vectorized` lists each loop the plan runs inline as
  (While op, None when it runs as array operations or else why not).
- Subgraphs (branch and loop bodies) run through `run_subgraph(ctx, graph, inputs)`,
  which caches their plan on the graph; their stateful ops always run, in program order.
  Run contexts (a Session, the eager context) take it as their `run_subgraph` method.
  `subgraph_runner(ctx, graph)` gives a callable for running one subgraph many times.

How a plan runs: one generated Python function `run(ctx, feeds)` (runtime/plan/source.py),
scheduled by runtime/plan/schedule.py, decided by the passes of runtime/plan/passes/ and
printed by runtime/plan/printer.py: a line per op on local variables named after the
ops that make them, operators instead of kernel calls on rank-0 numbers and direct
indexing for scalar indices (runtime/plan/expressions.py), `If`/`While` inlined as
Python `if`/`while` (loop variables named after the user's), element-wise ufuncs
writing into dying buffers, a `del` after the last reader of each intermediate array,
and one `try/except` that maps the failing line back to its op for the error. Subgraph
plans (`subgraph_plan`) still exist: the `While` kernel runs them when a run context
must see each iteration (the gradient of `While`).
"""

from functools import partial

from autograph_py.runtime.errors import InvalidArgumentError, format_location
from autograph_py.runtime.graph_walk import ops_reaching
from autograph_py.runtime.plan.passes.naming import loop_variable_names
from autograph_py.runtime.plan.passes.pipeline import default_passes
from autograph_py.runtime.plan.schedule import Namer, Step, forwarded_input, schedule
from autograph_py.runtime.plan.source import compile_plan

__all__ = ["MissingFeedError", "Plan", "Step", "call_subgraph", "forwarded_input",
           "run_subgraph", "subgraph_plan", "subgraph_runner"]


class MissingFeedError(InvalidArgumentError):
    pass


class Plan:
    def __init__(self, graph, fetch_tensors, target_ops=(), feed_tensors=(), passes=None):
        self.graph = graph
        passes = default_passes() if passes is None else passes
        fed = {id(t): t for t in feed_tensors}
        self.ops = ops = ops_reaching(fetch_tensors, target_ops, fed, control_inputs=True)
        placeholders = [op for op in ops if op.type == "Placeholder"]
        if placeholders:
            op = placeholders[0]
            t = op.outputs[0]
            raise MissingFeedError(
                f"you must feed a value for placeholder {t.name} (dtype {t.dtype.name}, shape "
                f"{t.shape}), created at {format_location(op.location)}")

        namer = Namer()
        names = {}  # id(tensor) -> the name of its value in the generated function
        for t in feed_tensors:
            names.setdefault(id(t), namer.value(t))
        self.feed_tensors = list(feed_tensors)
        self.feed_names = [names[id(t)] for t in feed_tensors]
        loop_names = loop_variable_names(namer, ops, fed) if "loop_names" in passes else {}
        self.steps, self.fetch_names = schedule(ops, names, namer, fetch_tensors, fed,
                                                rename=loop_names)
        self.code, self.function = compile_plan(self, namer, passes)

    def run(self, ctx, feed_values):
        return self.function(ctx, feed_values)


def subgraph_plan(graph):
    return graph.derived.once("plan", lambda: Plan(graph, graph.outputs, graph.stateful_ops,
                                                   graph.inputs))


def run_subgraph(ctx, graph, inputs):
    """The outputs of `graph` run on `inputs` in run context `ctx` (the `run_subgraph`
    method of the standard run contexts)."""
    return subgraph_plan(graph).function(ctx, inputs)


def _runs_plans_directly(ctx):
    """Whether `ctx.run_subgraph` only runs the plan, so callers may call the compiled
    function themselves. A wrapper that overrides it (the gradient of `While` records the
    body's inputs) keeps being called."""
    return getattr(type(ctx), "run_subgraph", None) is run_subgraph


def call_subgraph(ctx, graph, inputs):
    """`ctx.run_subgraph(graph, inputs)`, without the detour for a standard context."""
    if _runs_plans_directly(ctx):
        return subgraph_plan(graph).function(ctx, inputs)
    return ctx.run_subgraph(graph, inputs)


def subgraph_runner(ctx, graph):
    """`run(inputs)`, the same as `ctx.run_subgraph(graph, inputs)`, for repeated calls."""
    if _runs_plans_directly(ctx):
        return partial(subgraph_plan(graph).function, ctx)
    return partial(ctx.run_subgraph, graph)
