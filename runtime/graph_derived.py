"""What other modules compute once from a finished graph, in one typed record per graph.

Contract: every `Graph` has `graph.derived`, a `Derived` with one slot per fact, each
None until `derived.once(slot, make)` first asks for it (then `make()`'s value, kept).
A slot that is not declared here is an AttributeError, so a new fact is declared (with
the module that computes it) rather than invented under a free-text key.

The record lives on the graph, so it dies with the graph: a module-level table keyed by
the graph (even a WeakKeyDictionary) would keep values that refer back to the graph, and
so the graph, forever (tests/runtime/test_graph_lifetime.py).

Nothing here is part of what the graph computes: its printed and serialized forms never
read it, and a graph read back from its serialized form starts empty.
"""


class Derived:
    __slots__ = (
        # runtime/plan/executor.subgraph_plan: the graph's own Plan (inputs -> outputs,
        # every stateful op run), which If/While kernels and function calls run.
        "plan",
        # runtime/gradients/function_call: the outputs of the graph's own ReadVariable ops
        # (a call that keeps its reads fetches them after the outputs) ...
        "variable_reads",
        # ... the Plan that fetches them too ...
        "reading_plan",
        # ... and the gradient graph of a call, without and with those reads as inputs.
        "gradient_graph",
        "gradient_graph_with_reads",
        # runtime/gradients/engine: the Variables the graph (or a graph in its ops) reads,
        # and the ids of the eager tensors it holds as constants.
        "inner_variables",
        "embedded_eager_tensors",
        # runtime/xla/call: the graph compiled by XLA, without and with the kept reads.
        "xla",
        "xla_with_reads",
        # runtime/xla/replicas: the graph as one replica's program, sharded over a mesh
        # (a dict: (mesh, which inputs are split) -> its ShardedGraph).
        "sharded",
    )

    def __init__(self):
        for slot in self.__slots__:
            setattr(self, slot, None)

    def once(self, slot, make):
        """The value of `slot`, made by `make()` the first time it is asked for."""
        value = getattr(self, slot)
        if value is None:
            value = make()
            setattr(self, slot, value)
        return value
