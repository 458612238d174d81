# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 300371
# index: 0
# mode: graph
# outcome: crash
# error: InvalidArgumentError: assertion failed: local variable 'x1' is used after a staged loop that ran no iteration, so it was never assigned (define 'x1' before the loop)
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v2 = b

    def h0(p):
        nonlocal v2
        v2 = v2
    for i1, x1 in enumerate(xs):
        if 1 or h0(x1):
            pass
    return v2
