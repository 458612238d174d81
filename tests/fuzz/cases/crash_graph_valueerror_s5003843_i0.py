# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 5003843
# index: 0
# mode: graph
# outcome: crash
# error: ValueError: tensor If:1 belongs to another graph; it cannot be an input of an op in this graph. Create all the ops of a computation in one graph.
# inputs: [(0, 0, [])]
# A staged while whose test is a lowered `and` (walrus, then a helper rebinding v0) and
#   whose body returns from a try gave "tensor If:1 belongs to another graph": the `and`'s
#   generated function carried v1 (its nonlocal) through its staged if, and read the tensor
#   the loop's probe iteration left there. Fixed: a generated function's nonlocal is
#   carried only when its caller may read it afterwards (liveness.live_within).
def risky(p):
    raise ValueError(p)

def f(a, b, xs):
    v0 = 1
    v2 = b

    def h0(p):
        nonlocal v0
        v0 = v0 + p
        return v0
    while (v1 := (v2 + -2)) > b and v2 != h0(0) % 3:
        try:
            return risky(4) + len(xs)
        except ValueError:
            pass
    return a
