# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 901459
# index: 0
# mode: graph
# outcome: crash
# error: ValueError: tensor If:0 belongs to another graph; it cannot be an input of an op in this graph. Create all the ops of a computation in one graph.
# inputs: [(0, 0, [])]
K = 0

def f(a, b, xs):
    v0 = a
    v1 = a
    if a:
        w3 = 0
        while w3 or (v1 := v0):
            w3 += 1
            v1, v0 = (K, b)
            v1 += a
    elif v1:
        pass
    return b
