# ruff: noqa
# Minimized by tests/fuzz (python -m tests.fuzz); run by tests/fuzz/test_cases.py.
# seed: 5002479
# index: 0
# mode: graph
# outcome: crash
# error: NameError: cannot access free variable 'v1' where it is not associated with a value in enclosing scope
# v1 is bound first by the helper h0's nonlocal write in a staged branch: graph and
#   function modes rejected it as defined in only one branch and used after it, yet nothing
#   reads it after the if (v1 = ... rebinds it). Fixed: a name a helper only rebinds is
#   carried by liveness, like any local (activity's Scope.closure_writes).
# graph/function found after the fix of the python crash: a NameError (get_state read
#   the unbound v1) before reaching definitions stopped counting h0's def as binding v1
# inputs: [(0, 0, []), (1, 2, [3])]
def f(a, b, xs):
    v0 = b

    def h0(p):
        nonlocal v1
        v1 = p
        return p
    v1 = 0 if (v0 := v0) else h0(b)
    return 0
