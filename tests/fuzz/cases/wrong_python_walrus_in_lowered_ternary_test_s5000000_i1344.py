# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 5000000
# index: 1344
# mode: python
# outcome: wrong
# error: f(-2, 0, []): Python (0, -1), python (0, 1)
# h0 returns p (minimized, it returned None, which a staged ternary cannot join with
# an int), so the case stages, and shows the bug in every mode
# inputs: [(-2, 0, []), (-1, 3, [1, 2])]
K = 0

def f(a, b, xs):
    v0 = 1
    v1 = a
    v2 = a
    d = {0: 0, 0: 1}
    def h0(p):
        nonlocal v2
        v2 = p
        return p
    d[0] = h0(1) if (v0 := (v1 + 1)) else v1
    return (K, v0)
