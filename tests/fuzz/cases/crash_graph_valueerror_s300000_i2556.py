# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 300000
# index: 2556
# mode: graph
# outcome: crash
# error: ValueError: tensor If_1:0 belongs to another graph; it cannot be an input of an op in this graph. Create all the ops of a computation in one graph.
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v0 = 1
    v1 = 0
    v2 = b

    def h0(p):
        nonlocal v0
        v0 = p
    while h0(0) if len(xs) and v2 else len(xs):
        pass
    return max(v0, v1)
