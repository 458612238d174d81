# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 300019
# index: 0
# mode: graph
# outcome: crash
# error: ValueError: 'v0' is defined in only one branch of the `if` and used after it; the condition is a tensor, so both branches are built into the graph and both must give 'v0' a value (or define it before the `if`)
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v2 = 0
    v3 = b

    def h0(p):
        t = v3
        return t
    if h0(0):
        v0 = b
        if v0 or (v0 := v2):
            pass
