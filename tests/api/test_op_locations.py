"""Every op a converted function creates is located in the user's file, at a line of the
function: the runtime skips autograph_py's own frames, the fast path's dispatching
functions (`<autograph_py fast path>`) among them. Found in the docs' pictures: the output
`Identity` of an `if` in a loop was located at `<autograph_py fast path>:8`."""

import inspect

import pytest

import autograph_py as ag
from tests.cli.fixtures.seed_functions import sum_even


def _lines(fn):
    lines, first = inspect.getsourcelines(fn)
    return range(first, first + len(lines))


def _all_ops(graph):
    for op in graph.get_operations():
        yield op
        for value in op.attrs.values():  # the bodies of If and While
            if isinstance(value, ag.Graph):
                yield from _all_ops(value)


@pytest.mark.parametrize("make", [
    lambda: ag.function(sum_even).get_concrete_function(ag.TensorSpec([None], ag.int32)).graph,
    lambda: ag.function(ag.to_graph(sum_even)).get_concrete_function(
        ag.TensorSpec([None], ag.int32)).graph,
], ids=["function", "function_of_to_graph"])
def test_ops_are_located_at_the_users_lines(make):
    graph = make()
    ops = list(_all_ops(graph))
    assert ops
    for op in ops:
        assert op.location is not None, op
        filename, line = op.location
        # The trace's own ops, its arguments and the outputs' Identity, are located at
        # the call that traced (here); the function's, at its lines.
        if op.type in ("Placeholder", "Identity") and filename == __file__:
            continue
        assert filename == inspect.getsourcefile(sum_even), (op, op.location)
        assert line in _lines(sum_even), (op, op.location)
