# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 700000
# index: 110
# mode: python
# outcome: crash
# error: UndefinedSymbolError: local variable 'v1' is used before it is assigned
# inputs: [(-3, 0, [])]
K = 0

def f(a, b, xs):
    v1 = 0
    v2 = 0
    v0 = v2
    w1 = 0
    while True:
        w1 += 1
        if w1 > 2:
            break
        if 0 and (v1 := v0):
            pass
        elif v1:
            pass
    return K
