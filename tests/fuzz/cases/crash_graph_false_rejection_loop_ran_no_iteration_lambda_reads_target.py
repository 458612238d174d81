# ruff: noqa
# Written by hand (h10), in the fuzz case format; run by tests/fuzz/test_cases.py.
# mode: graph
# outcome: crash
# error: InvalidArgumentError: assertion failed: local variable 'x' is used after a staged loop that ran no iteration, so it was never assigned (define 'x' before the loop)
# inputs: [(0, 0, []), (1, 2, [1, 2, 3])]
# A lambda made and called inside a staged loop reads the loop target x: x counted as
#   captured (a closure may run whenever), so the loop carried it, and a loop that ran no
#   iteration tripped the check for a variable first bound inside it. Fixed: a closure
#   only ever called by name reads where it is called (liveness sees it); only the reads
#   of closures that escape are carried regardless.
def f(a, b, xs):
    v0 = 0
    for x in xs:
        g = lambda p: p + x
        v0 = v0 + g(1)
    return v0
