"""Pictures of traced graphs: a nested loop as Graphviz DOT text and in TensorBoard.

Run: `python examples/visualize.py` writes `nested_loops.dot` and the TensorBoard log
dir `logs/`; then `dot -Tsvg nested_loops.dot -o nested_loops.svg`, or
`tensorboard --logdir logs` and open the Graphs tab. The command line draws the same
picture directly (docs/visualize.md shows it):
`autograph graph examples/visualize.py -f nested_loops -s "int32[]" -o nested_loops.svg`.
"""

import autograph_py as ag


def nested_loops(n):
    total = 0
    for i in ag.range(n):
        j = 0
        while j < i:
            if (i + j) % 3 == 0:
                total += i * j
            j += 1
    return total


if __name__ == "__main__":
    graph = ag.function(nested_loops).get_concrete_function(ag.TensorSpec([], ag.int32)).graph
    with open("nested_loops.dot", "w") as f:
        f.write(graph.to_dot())
    print("wrote nested_loops.dot")
    print("wrote", ag.summary.write_graph("logs/nested_loops", graph))
    print("now: tensorboard --logdir logs, and open the Graphs tab")
