# ruff: noqa
# Written by hand (h10), in the fuzz case format; run by tests/fuzz/test_cases.py.
# mode: graph
# outcome: crash
# error: InvalidArgumentError: assertion failed: local variable 'x' is used after a staged loop that ran no iteration, so it was never assigned (define 'x' before the loop)
# inputs: [(0, 0, []), (1, 2, [1, 2, 3])]
# xfail: a lambda made and called inside a staged loop reads the loop target x: x counts as captured (a closure may run whenever), so the loop carries it, and a loop that ran no iteration trips the check for a variable first bound inside it, though nothing reads x after the loop. Needs liveness that sees the reads of closures called in place (only generated thunks' count today), so that captured covers only closures that escape
def f(a, b, xs):
    v0 = 0
    for x in xs:
        g = lambda p: p + x
        v0 = v0 + g(1)
    return v0
