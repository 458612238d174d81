"""The ternary `a if cond else b` of converted code.

Contract: `if_exp(cond, true_fn, false_fn, expr_repr)` calls only the chosen thunk when
`cond` is a Python value or an eager tensor (an eager one must hold a single value); a
staged `cond` (backends.py) stages both in one conditional of its backend. `expr_repr`
(the user's source text of the expression) names the value in error messages.
"""

from autograph_py.runtime.operators.backends import backend_for
from autograph_py.runtime.operators.control_flow import python_condition
from autograph_py.runtime.operators.truth import as_condition


def if_exp(cond, true_fn, false_fn, expr_repr):
    cond = as_condition(cond)
    backend = backend_for(cond)
    if backend is not None:
        return backend.cond(cond, true_fn, false_fn, (expr_repr,))
    return true_fn() if python_condition(cond, f"`{expr_repr}`") else false_fn()
