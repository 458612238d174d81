# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 5002479
# index: 0
# mode: python
# outcome: crash
# error: UnboundLocalError: cannot access local variable 'v0' where it is not associated with a value
# v1 = 0 and h0's return added to the minimized program: v1 must be bound before the
# ternary (fuzz contract) and the ternary's branches must both give an int to stage
# inputs: [(0, 0, []), (1, 2, [3])]
def f(a, b, xs):
    v0 = b
    v1 = 0

    def h0(p):
        nonlocal v1
        v1 = p
        return p
    v1 = 0 if (v0 := v0) else h0(b)
    return 0
