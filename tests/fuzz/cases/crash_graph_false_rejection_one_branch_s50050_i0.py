# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 50050
# index: 0
# mode: graph
# outcome: crash
# error: ValueError: 'v1' is defined in only one branch of the `if` and used after it; the condition is a tensor, so both branches are built into the graph and both must give 'v1' a value (or define it before the `if`)
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v0 = 0
    if sum(xs) or (v1 := v0):
        pass
    return a
