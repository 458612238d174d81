"""The executor: compile a plan for (graph, fetches, feeds) once, then run it many times.

Contract:
- `Plan(graph, fetch_tensors, target_ops, feed_tensors)` selects only the ops the fetches
  and targets need (a fed tensor prunes its producer), orders them (graph order is
  topological), assigns every tensor a slot, and records when each slot is last read so
  `run` frees intermediates as soon as they are dead.
- `Plan.run(ctx, feed_values)` returns the fetched values. A kernel that raises is
  reported as an `OpError` naming the op, its type, its inputs and the user's source line.
- Subgraphs (branch and loop bodies) run through `run_subgraph`, which caches their plan
  on the graph; their stateful ops always run, in program order.
"""

from functools import partial

from runtime.errors import InvalidArgumentError, OpError, format_location, op_error


class MissingFeedError(InvalidArgumentError):
    pass


class Plan:
    def __init__(self, graph, fetch_tensors, target_ops=(), feed_tensors=()):
        self.graph = graph
        fed = {id(t): t for t in feed_tensors}
        needed_ops = {}
        stack = [t for t in fetch_tensors if id(t) not in fed]
        op_stack = list(target_ops)
        while stack or op_stack:
            if stack:
                op = stack.pop().op
            else:
                op = op_stack.pop()
            if id(op) in needed_ops:
                continue
            needed_ops[id(op)] = op
            stack.extend(t for t in op.inputs if id(t) not in fed)
            op_stack.extend(op.control_inputs)
        ops = sorted(needed_ops.values(), key=lambda o: o.index)

        slots = {}
        for t in feed_tensors:
            slots.setdefault(id(t), len(slots))
        self.feed_slots = [slots[id(t)] for t in feed_tensors]
        for op in ops:
            for t in op.outputs:
                slots.setdefault(id(t), len(slots))
        self.num_slots = len(slots)
        self.fetch_slots = [slots[id(t)] for t in fetch_tensors]

        missing = [op for op in ops if op.type == "Placeholder"]
        if missing:
            op = missing[0]
            t = op.outputs[0]
            raise MissingFeedError(
                f"you must feed a value for placeholder {t.name} (dtype {t.dtype.name}, shape "
                f"{t.shape}), created at {format_location(op.location)}")

        last_use = {}
        for step, op in enumerate(ops):
            for t in op.inputs:
                last_use[slots[id(t)]] = step
        keep = set(self.fetch_slots)
        frees = [[] for _ in ops]
        for slot, step in last_use.items():
            if slot not in keep:
                frees[step].append(slot)
        for step, op in enumerate(ops):
            for t in op.outputs:  # outputs nobody reads die at once
                slot = slots[id(t)]
                if slot not in last_use and slot not in keep:
                    frees[step].append(slot)

        self.steps = []
        for step, op in enumerate(ops):
            kernel = partial(op.opdef.kernel, **op.attrs) if op.attrs else op.opdef.kernel
            self.steps.append((kernel, tuple(slots[id(t)] for t in op.inputs),
                               tuple(slots[id(t)] for t in op.outputs),
                               op.opdef.needs_context, op.opdef.num_outputs == 1, op,
                               tuple(frees[step])))
        self.ops = ops

    def run(self, ctx, feed_values):
        values = [None] * self.num_slots
        for slot, value in zip(self.feed_slots, feed_values):
            values[slot] = value
        for kernel, ins, outs, needs_ctx, single, op, frees in self.steps:
            args = [values[i] for i in ins]
            try:
                result = kernel(ctx, *args) if needs_ctx else kernel(*args)
            except OpError:
                raise
            except InvalidArgumentError as e:
                raise type(e)(f"{e}\n  (op '{op.name}' ({op.type}) created at "
                              f"{format_location(op.location)})") from None
            except Exception as e:
                raise op_error(op, e) from e
            if single:
                values[outs[0]] = result
            else:
                for slot, value in zip(outs, result):
                    values[slot] = value
            for slot in frees:
                values[slot] = None
        return [values[s] for s in self.fetch_slots]


def subgraph_plan(graph):
    plan = getattr(graph, "_plan", None)
    if plan is None:
        plan = graph._plan = Plan(graph, graph.outputs, graph.stateful_ops, graph.inputs)
    return plan


def run_subgraph(ctx, graph, inputs):
    return subgraph_plan(graph).run(ctx, inputs)
