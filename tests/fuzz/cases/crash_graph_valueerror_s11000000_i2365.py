# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 11000000
# index: 2365
# mode: graph
# outcome: crash
# error: ValueError: tensor FloorMod:0 belongs to another graph; it cannot be an input of an op in this graph. Create all the ops of a computation in one graph.
# inputs: [(0, 0, [])]
# h0 rebinds v1 without reading it, inside the lowered-to-lambdas chain of a staged elif,
#   while the staged if around it carries v1 (read by its body): the chain was not lowered
#   to an if carrying v1 (lazy_operands did not count what enclosing statements carry), so
#   the if's get_state read a tensor of the chain's branch graph. Fixed.
def f(a, b, xs):
    v0 = b
    v1 = 1
    d = {0: 0, 0: 1}

    def h0(p):
        nonlocal v1
        v1 = p % 0
        return p
    if a:
        d[0] = v1
    elif 0 < v0 <= h0(a):
        pass
    return 0
