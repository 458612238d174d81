"""The module `autograph convert` prints gives Python's answers where converted code once
did not (issue 10): list methods on a global or closure list, closures reading rebound
variables, `break` in an inner loop's `else`, `while True: break` after a return."""

import pytest

from tests.cli.conftest import convert_and_import

# Python values here test the converted code: a call that stages nothing would run the
# function as written (tests/converted_path.py).
pytestmark = pytest.mark.usefixtures("converted_path")


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    return convert_and_import("python_semantics.py", tmp_path_factory.mktemp("semantics"))


def global_list_calls(module):
    module.log[:] = [5]
    recorded = (module.record(1), list(module.log))
    return recorded, (module.take_last(1), list(module.log))


def closure_list_calls(module):
    seen, remember, forget = module.make_recorder()
    remembered = (remember(2), list(seen))
    return remembered, (forget(1), list(seen))


@pytest.mark.parametrize("calls", [global_list_calls, closure_list_calls])
def test_append_and_pop_on_a_list_the_function_does_not_own(modules, calls):
    original, converted = modules
    assert calls(converted) == calls(original)


@pytest.mark.parametrize("name, args", [
    ("closure_reads_a_variable_rebound_after_return", (2,)),
    ("closure_reads_a_variable_rebound_after_return", (-2,)),
    ("count_until_the_else_of_an_inner_while_breaks", ([1, 2],)),
    ("count_until_the_else_of_an_inner_while_breaks", ([],)),
    ("return_in_if_then_while_true_break", (3,)),
    ("return_in_if_then_while_true_break", (200,)),
])
def test_converted_module_matches_the_original(modules, name, args):
    original, converted = modules
    assert getattr(converted, name)(*args) == getattr(original, name)(*args)
