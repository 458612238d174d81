# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 2000000
# index: 1157
# mode: graph
# outcome: crash
# error: UnboundLocalError: cannot access local variable 'v1' where it is not associated with a value
# inputs: [(-2, 0, []), (3, 1, [4])]
def f(a, b, xs):
    v0 = a
    v1 = 0
    def h0(p):
        nonlocal v0
        v0 = v0
    return h0(1) if (v1 := v1) else a
