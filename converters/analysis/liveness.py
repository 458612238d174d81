"""Liveness: the symbols whose current value may still be read.

`resolve(graphs)` solves the backward dataflow problem on each CFG and annotates every
statement of the function with `Static.LIVE_VARS_IN` (live before the statement runs)
and `Static.LIVE_VARS_OUT` (live right after it completes), as frozensets of QNs.
`live_within(stmt, calls)` answers, from those, what may be read after an expression
inside `stmt` runs.
"""
import gast
from autograph_py.converters import anno
from autograph_py.converters.analysis import activity


def _solve(graph):
    calls = anno.getanno(graph.function, anno.Static.CALLS)  # a call reads what it runs
    effects = graph.head_scopes(calls)
    live_in = {node: frozenset() for node in graph.nodes}
    # A worklist: a node is computed again only when what follows it changed (sweeping
    # the whole graph until nothing changes took two sweeps even without loops). The
    # fixpoint is the same whatever the order.
    todo = [node for node in graph.nodes if node in effects]  # popped last first
    waiting = set(todo)
    while todo:
        node = todo.pop()
        waiting.discard(node)
        out = frozenset().union(*(live_in[s] for s in node.next))
        scope = effects[node]
        # A call of a local function may rebind a name (its `nonlocal` write can be
        # conditional): only a direct binding ends the name's liveness.
        new = frozenset(scope.read | (out - (scope.modified - scope.via_calls)))
        if new != live_in[node]:
            live_in[node] = new
            for previous in node.prev:
                if previous in effects and previous not in waiting:
                    waiting.add(previous)
                    todo.append(previous)
    return live_in


def resolve(graphs):
    for graph in graphs:
        live_in = _solve(graph)
        for node in graph.nodes:
            if node.ast_node is None or node is graph.entry:
                continue
            following = graph.stmt_next.get(id(node.ast_node), node.next)
            anno.setanno(node.ast_node, anno.Static.LIVE_VARS_IN, live_in[node])
            anno.setanno(node.ast_node, anno.Static.LIVE_VARS_OUT,
                         frozenset().union(*(live_in[s] for s in following)))


def live_within(stmt, calls=None):
    """The symbols whose binding may be read after some expression of `stmt` runs (a lazy
    operand, a generated function it calls): what `stmt` reads, and what is live after it
    except what its assignment binds, last, from the value. None when `stmt` was made
    after the analysis ran."""
    live = anno.getanno(stmt, anno.Static.LIVE_VARS_OUT, None)
    if live is None:
        return None
    if isinstance(stmt, (gast.Assign, gast.AnnAssign)) and stmt.value is not None:
        targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
        bound = activity.block_scope(targets).own
        live = {qn for qn in live if str(qn.root) not in bound}
    return frozenset(activity.block_scope([stmt], calls).read | live)
