# ruff: noqa
# Minimized by hand from tests/fuzz's program (seed 0, index 2583; python -m tests.fuzz
#   --count 10000 --seed 0). Run by tests/fuzz/test_cases.py.
# seed: 0
# index: 2583
# mode: python
# outcome: crash
# error: UnboundLocalError: cannot access local variable 'v' where it is not associated with a value
# inputs: [(1, 0, [])]
# An assignment inside a `with` whose manager swallows the exception (contextlib.suppress)
#   is taken as always made: when the body raises before it, converted code reads the
#   variable unbound instead of its value from before the `with` (in a converted `if` or
#   loop body, on plain Python values).
import contextlib


def risky(p):
    if p > 2:
        raise ValueError(p)
    return p


def f(a, b, xs):
    v = 1
    if a > 0:
        with contextlib.suppress(ValueError):
            risky(3)
            v = 5
        a += v
    return a
