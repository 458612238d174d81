"""Static analyses over gast trees. Each one only annotates nodes (see `converters.anno`).

`resolve(node)` runs them all in dependency order: activity (which asks `qual_names`
for the symbols it meets), then the control-flow graphs that liveness and reaching
definitions are computed on.
"""
from autograph_py.converters.analysis import (
    activity,
    cfg,
    liveness,
    reaching_definitions,
)


def resolve(node):
    memo = {}  # activity's, shared by the analyses of the unchanged tree
    activity.resolve(node, memo)
    graphs = cfg.build_all(node, memo)
    liveness.resolve(graphs)
    reaching_definitions.resolve(graphs)
    for graph in graphs:
        graph.release()
    return node
