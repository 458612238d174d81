"""Reaching definitions: which local names are bound at each statement.

`resolve(graphs)` annotates every statement with `Static.DEFINED_VARS_IN` (names bound
on every path that reaches it) and `Static.MAYBE_DEFINED_VARS_IN` (bound on at least one
path), as frozensets of plain names (str). For a loop, "reaches it" means entering it
from outside: what its own body binds on an earlier iteration does not count, since
that is what a converted loop must carry itself. Parameters are bound at entry. Names
that are not local to the function (globals, closures) are not tracked. A name a call of
a local function rebinds (its `nonlocal` write) is maybe bound after the call, never
surely; defining that function binds nothing but its name.
"""
import gast
from autograph_py.converters import anno

_LOOPS = (gast.For, gast.AsyncFor, gast.While)
_DEFINITIONS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def _solve(graph, defs, entry_defs, meet):
    universe = frozenset().union(entry_defs, *defs.values())
    out = {node: universe if meet is frozenset.intersection else frozenset()
           for node in graph.nodes}
    out[graph.entry] = entry_defs
    # A worklist, as liveness's: a node is computed again only when a predecessor's
    # result changed; the fixpoint is the same whatever the order.
    todo = graph.nodes[:0:-1]  # every node but the entry, popped first to last
    waiting = set(todo)
    while todo:
        node = todo.pop()
        waiting.discard(node)
        new = _meet(meet, [out[p] for p in node.prev]) | defs.get(node, frozenset())
        if new != out[node]:
            out[node] = new
            for following in node.next:
                if following not in waiting:
                    waiting.add(following)
                    todo.append(following)
    return out


def _meet(meet, sets):
    return meet(*sets) if sets else frozenset()


def _parameters(function):
    args = function.args
    return frozenset(a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
                     [args.vararg, args.kwarg] if a is not None)


def _entry_preds(graph, node):
    """Predecessors of a statement's head; for a loop, only those outside the loop."""
    if not isinstance(node.ast_node, _LOOPS):
        return node.prev
    inside = graph.inside[id(node.ast_node)]
    return [p for p in node.prev if p not in inside]


def resolve(graphs):
    for graph in graphs:
        scopes = graph.head_scopes()
        # Only the statement's own binding surely binds; a call of a local function may
        # (its `nonlocal` write), defining one does not (it binds when that one runs).
        own = {node: frozenset(scope.own) for node, scope in scopes.items()}
        bound = {node: own[node] if isinstance(node.ast_node, _DEFINITIONS) else
                 frozenset(str(qn) for qn in scope.bound) for node, scope in scopes.items()}
        params = _parameters(graph.function)
        definite = _solve(graph, own, params, frozenset.intersection)
        maybe = _solve(graph, bound, params, frozenset.union)
        for node in graph.nodes[1:-1]:
            preds = _entry_preds(graph, node)
            anno.setanno(node.ast_node, anno.Static.DEFINED_VARS_IN,
                         _meet(frozenset.intersection, [definite[p] for p in preds]))
            anno.setanno(node.ast_node, anno.Static.MAYBE_DEFINED_VARS_IN,
                         _meet(frozenset.union, [maybe[p] for p in preds]))
