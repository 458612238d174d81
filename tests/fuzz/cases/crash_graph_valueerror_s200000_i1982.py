# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 200000
# index: 1982
# mode: graph
# outcome: crash
# error: ValueError: Add:0 belongs to another graph than this Session's; create the Session inside that graph's `as_default()` block or pass Session(graph=...)
# inputs: [(0, 0, [])]
def f(a, b, xs):
    v0 = a
    v1 = 0

    def h1(p):
        nonlocal v0
        v0 = v0 + p
        return v0
    v2 = v1
    while v2 < h1(1) <= v1:
        pass
    return v0
