# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 0
# index: 567
# mode: graph
# outcome: crash
# error: ValueError: 'z' is defined in only one branch of the `if` and used after it; the condition is a tensor, so both branches are built into the graph and both must give 'z' a value (or define it before the `if`)
# inputs: [(1, 0, [])]
# Found with AUTOGRAPH_FUZZ_KNOWN_BUGS=1 (realcode.KNOWN_BUGS walrus_in_comprehension_staged).
#   A comprehension's `:=` in its filter, in a staged `if` inside a (Python) loop: the
#   comprehension binds z before its element reads it, and nothing reads z after the
#   comprehension, yet the staged `if` counts z as used after it. Without the loop, or
#   with a staged loop and no `if`, it converts.
def f(a, b, xs):
    v = 0
    for _ in range(2):
        if a > 0:
            v = sum([z - c for c in [1, 2] if (z := c * 2) > 2])
    return v
