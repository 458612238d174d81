# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 300000
# index: 1315
# mode: graph
# outcome: crash
# error: TypeError: cond: 'the value of `h0(a) and v1 < b <= v0`' has dtype bool in the true branch but int32 in the false branch; both branches must give it the same dtype
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v0 = b
    v1 = 0
    v2 = b

    def h0(p):
        nonlocal v2
        v2 = v2
        return v2
    w3 = 0
    while w3 or (h0(a) and v1 < b <= v0):
        pass
