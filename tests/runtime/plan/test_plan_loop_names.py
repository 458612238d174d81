"""Loop variables and the outputs of an If in `.code` are named after the user's
variables (runtime/plan/passes/naming.py): unique, never a keyword nor a global of the
generated function, and the plan still computes what the reference interpreter does."""

import ast
import re

import numpy as np
from autograph_py.runtime.plan.passes.pipeline import OPTIONAL
from autograph_py.runtime.recording import EAGER_CONTEXT
from plan_corpus import _graph, _traced, build, plan_of
from reference import interpret
from test_plan_reference import assert_same_values

import autograph_py as ag


def _assigned(code):
    return {node.id for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _check(built):
    code = plan_of(built).code
    feeds = {id(t): v for t, v in built.feeds.items()}
    assert_same_values(plan_of(built).run(EAGER_CONTEXT, list(built.feeds.values())),
                       interpret(EAGER_CONTEXT, built.fetches, built.targets, feeds))
    return code


def test_the_loop_variables_of_collatz_are_the_users():
    code = _check(build("collatz_function"))
    assert "steps" in _assigned(code)
    assert not re.search(r"\bwhile_\d", code)
    # the argument `n` keeps its name: the loop's `n` is another variable
    assert "n_1" in _assigned(code)


def test_without_the_pass_loop_variables_are_named_after_the_op():
    built = build("collatz_function")
    assert re.search(r"\bwhile_\d", plan_of(built, OPTIONAL - {"loop_names"}).code)


def globals_as_names(n):
    asarray = 0
    empty = 1
    while asarray < n:
        asarray += 1
        empty *= 2
    return asarray + empty


def test_a_user_variable_never_takes_a_global_of_the_generated_function():
    code = _check(_traced(globals_as_names, np.int32(5)))
    assert "asarray" not in _assigned(code)
    assert "empty" not in _assigned(code)
    assert {"asarray_1", "empty_1"} <= _assigned(code)


def test_the_outputs_of_an_if_are_named_after_the_variables_its_branches_set():
    code = _check(build("collatz_function"))
    assert not re.search(r"\bif_\d", code)
    assert "n_2" in _assigned(code)  # the `n` the if sets, beside the loop's `n_1`


def sign_and_size(x):
    if ag.reduce_sum(x) > 0:
        sign, size = 1.0, ag.reduce_sum(x)
    else:
        sign, size = -1.0, -ag.reduce_sum(x)
    return sign * size


def test_an_if_of_two_variables_and_a_cond_without_names():
    code = _check(_traced(sign_and_size, np.float32([1.0, -3.0])))
    assert {"sign", "size"} <= _assigned(code)

    def unnamed(x):  # ag.cond's outputs have no user's name: the op's is kept
        return ag.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)

    code = _check(_graph(unnamed, np.float32(2.0)))
    assert re.search(r"\bif_\d+ =", code), code
