"""Reaching definitions: which local names are bound at each statement.

`resolve(graphs)` annotates every statement with `Static.DEFINED_VARS_IN` (names bound
on every path that reaches it) and `Static.MAYBE_DEFINED_VARS_IN` (bound on at least one
path), as frozensets of plain names (str). Parameters are bound at entry. Names that are
not local to the function (globals, closures) are not tracked: they count as defined.
"""
from converters import anno
from converters.analysis import activity


def _solve(graph, defs, entry_defs, meet):
    universe = frozenset().union(entry_defs, *defs.values())
    out = {node: universe if meet is frozenset.intersection else frozenset()
           for node in graph.nodes}
    out[graph.entry] = entry_defs
    ins = {graph.entry: frozenset()}
    changed = True
    while changed:
        changed = False
        for node in graph.nodes[1:]:
            preds = [out[p] for p in node.prev]
            ins[node] = meet(*preds) if preds else frozenset()
            new = ins[node] | defs.get(node, frozenset())
            if new != out[node]:
                out[node], changed = new, True
    return ins


def resolve(graphs):
    for graph in graphs:
        defs = {node: frozenset(str(qn) for qn in
                                activity.head_scope(node.ast_node).bound)
                for node in graph.nodes[1:-1]}
        params = frozenset(_parameters(graph.function))
        definite = _solve(graph, defs, params, frozenset.intersection)
        maybe = _solve(graph, defs, params, frozenset.union)
        for node in graph.nodes[1:-1]:
            anno.setanno(node.ast_node, anno.Static.DEFINED_VARS_IN, definite[node])
            anno.setanno(node.ast_node, anno.Static.MAYBE_DEFINED_VARS_IN, maybe[node])


def _parameters(function):
    args = function.args
    return [a.id for a in args.posonlyargs + args.args + args.kwonlyargs +
            [args.vararg, args.kwarg] if a is not None]
