"""The ternary `a if cond else b` of converted code.

Contract: `if_exp(cond, true_fn, false_fn, expr_repr)` calls only the chosen thunk when
`cond` is a Python value or an eager tensor (an eager one must hold a single value); a
symbolic `cond` stages both into one `cond` op. `expr_repr` (the user's source text of
the expression) names the value in error messages.
"""

from autograph_py.runtime.control_flow import cond as staged_cond
from autograph_py.runtime.operators.control_flow import python_condition
from autograph_py.runtime.operators.truth import as_condition, truth
from autograph_py.runtime.tensor import is_symbolic


def if_exp(cond, true_fn, false_fn, expr_repr):
    cond = as_condition(cond)
    if is_symbolic(cond):
        return staged_cond(truth(cond), true_fn, false_fn, names=(expr_repr,))
    return true_fn() if python_condition(cond, f"`{expr_repr}`") else false_fn()
