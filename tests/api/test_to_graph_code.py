"""`to_code` output is deterministic and readable: golden texts for small functions
(a `while` with `break`, a ternary, an `and`), compared exactly."""

import pytest

import autograph_py as ag
from autograph_py import conversion
from autograph_py.conversion_cache import ConversionCache
from tests.api.test_to_graph_cache import conversions  # noqa: F401 -- a fixture


def first_over(xs, limit):
    i = 0
    while i < len(xs):
        if xs[i] > limit:
            break
        i += 1
    return i


def pick(x, y):
    return x if x > y else y


def both_positive(x, y):
    return x > 0 and y > 0


def pick_again(x, y):
    return x if x > y else y


FIRST_OVER = """\
def first_over(xs, limit):
    i = 0
    break_ = False

    def get_state():
        return (break_, i)

    def set_state(vars_):
        nonlocal break_, i
        break_, i = vars_

    def loop_test():
        return ag__.and_(lambda: ag__.not_(break_), lambda: i < ag__.converted(len)(xs), test=True)

    def loop_body():
        nonlocal break_, i

        def get_state_1():
            return (break_, i)

        def set_state_1(vars_):
            nonlocal break_, i
            break_, i = vars_

        def if_body():
            nonlocal break_
            break_ = True

        def else_body():
            nonlocal i
            i += 1
        ag__.if_stmt(xs[i] > limit, if_body, else_body, get_state_1, set_state_1, ('<break flag>', 'i'))
    ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('<break flag>', 'i'), {})
    return i"""  # noqa: E501 -- generated lines are as long as they are

PICK = """\
def pick(x, y):
    return ag__.if_exp(x > y, lambda: x, lambda: y, 'x if x > y else y')"""

BOTH_POSITIVE = """\
def both_positive(x, y):
    return ag__.and_(lambda: x > 0, lambda: y > 0)"""


@pytest.mark.parametrize("fn, expected", [(first_over, FIRST_OVER), (pick, PICK),
                                          (both_positive, BOTH_POSITIVE)],
                         ids=["while_break", "ternary", "and"])
def test_golden(fn, expected):
    assert ag.to_code(fn) == expected


def test_same_text_when_converted_again(conversions, monkeypatch):  # noqa: F811
    # The fixture empties the caches, so this really converts twice.
    first = ag.to_code(first_over)
    conversions.clear()
    monkeypatch.setattr(conversion, "_cache", ConversionCache())
    assert ag.to_code(first_over) == first
    assert conversions == ["first_over"]


def test_identical_functions_give_identical_code():
    assert ag.to_code(pick_again) == ag.to_code(pick).replace("def pick(", "def pick_again(")


def test_golden_code_runs_like_the_original():
    for args in (([1, 5, 2], 3), ([1, 2], 9)):
        assert ag.to_graph(first_over)(*args) == first_over(*args)


def test_to_code_of_an_already_converted_module_returns_its_source(tmp_path):
    import importlib.util
    import inspect

    source = "def square_if_positive(x):\n    if x > 0:\n        x = x * x\n    return x\n"
    original = tmp_path / "original_mod.py"
    original.write_text(source)
    converted_path = tmp_path / "converted_mod.py"
    spec = importlib.util.spec_from_file_location("original_mod", original)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    converted_path.write_text("from autograph_py import operators as ag__\n\n\n" +
                              ag.to_code(module.square_if_positive))
    spec = importlib.util.spec_from_file_location("converted_mod", converted_path)
    converted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converted)
    code = ag.to_code(converted.square_if_positive)
    assert code == inspect.getsource(converted.square_if_positive)
    assert code.count("ag__.if_stmt(") == 1  # not converted a second time
