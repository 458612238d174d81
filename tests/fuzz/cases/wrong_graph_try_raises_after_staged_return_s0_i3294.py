# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz --count 1 --seed 3294, program 3294 of
#   seed 0's long run); run by tests/fuzz/test_cases.py.
# seed: 3294
# index: 0
# mode: graph
# outcome: wrong
# error: f(0, 2, [-3]): Python 0, graph 2
# inputs: [(0, 2, [-3])]
# A staged `if` that returns (or breaks) inside a `try` whose body goes on to a call that
#   raises: Python returns first when the tensor condition holds; staged, the rest of the
#   body is traced too, the call raises while tracing, and the `except` path is built
#   for every input, silently (seeds 0+2241 and 0+8616: "tensor If:0 belongs to another
#   graph" instead). Whether the call raises depends on a tensor, which cannot be staged
#   (the generator's rule), but nothing says so: an error naming the `try` would.
# xfail: a Python exception after a staged return in a try is raised while tracing (silent wrong answer)
def risky(p):
    raise ValueError(p)


def f(a, b, xs):
    v2: int = 0
    try:
        if sum(xs):
            return 0
        v2 += risky(0)
    except ValueError:
        pass
    return b
