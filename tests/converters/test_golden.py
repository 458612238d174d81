"""The to_code shape of the seed examples (SEED_EXAMPLES.md §4, §5) is pinned."""
import textwrap

from tests.converters import corpus, harness

SQUARE_IF_POSITIVE = '''
def square_if_positive(x):

    def get_state():
        return (x,)

    def set_state(vars_):
        nonlocal x
        x, = vars_

    def if_body():
        nonlocal x
        x = x * x

    def else_body():
        nonlocal x
        x = 0.0
    ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('x',))
    return x
'''

SUM_EVEN = '''
def sum_even(items):
    s = 0

    def get_state():
        return (s,)

    def set_state(vars_):
        nonlocal s
        s, = vars_

    def loop_body(c):
        nonlocal s

        def get_state_1():
            return (s,)

        def set_state_1(vars_):
            nonlocal s
            s, = vars_

        def if_body():
            nonlocal s
            s += c
        ag__.if_stmt(ag__.not_(c % 2 > 0), if_body, lambda: None, get_state_1, \
set_state_1, ('s',))
    ag__.for_stmt(items, None, loop_body, get_state, set_state, ('s',), {})
    return s
'''


def _golden(text):
    return textwrap.dedent(text).strip()


def test_square_if_positive():
    assert harness.to_code(corpus.square_if_positive) == _golden(SQUARE_IF_POSITIVE)


def test_sum_even():
    assert harness.to_code(corpus.sum_even) == _golden(SUM_EVEN)
