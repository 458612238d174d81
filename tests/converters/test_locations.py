"""Every node of converted code points at a line of the user's original function."""
import gast
import pytest

from tests.converters import corpus, harness


@pytest.mark.parametrize('case', corpus.CASES, ids=lambda c: c.name)
def test_generated_nodes_point_into_the_function(case):
    node, _ = harness.converted_node(case.fn)
    first = node.lineno
    last = max(n.end_lineno for n in gast.walk(node) if getattr(n, 'end_lineno', None))
    for n in gast.walk(node):
        if 'lineno' in getattr(type(n), '_attributes', ()):
            assert first <= n.lineno <= last, (type(n).__name__, harness.to_code(case.fn))


def test_lines_are_absolute_in_the_user_file():
    node, filename = harness.converted_node(corpus.sum_even)
    assert filename == corpus.__file__
    assert node.lineno == corpus.sum_even.__code__.co_firstlineno
