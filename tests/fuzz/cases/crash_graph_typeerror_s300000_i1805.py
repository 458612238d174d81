# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 300000
# index: 1805
# mode: graph
# outcome: crash
# error: TypeError: 'w3' is a Undefined before the loop and a Undefined after an iteration; a staged loop can only change variables that hold a tensor or a number before it
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v1 = a
    v0 = v1
    for i1, x1 in enumerate(xs):
        while 2:
            break
        else:
            w3 = 0
            while w3 and (v0 := v0):
                pass
