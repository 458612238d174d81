"""and_/or_/not_/compare_chain, if_exp and assert_stmt: Python semantics for Python and
eager values, lazily staged for symbolic ones."""

import autograph_py.runtime.operators as ag__
import pytest
from autograph_py.runtime.errors import InvalidArgumentError
from autograph_py.runtime.graph import Graph
from autograph_py.runtime.ops import logging_ops
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.session import Session
from test_operators_support import in_three_modes, staged


class Recorder:
    """Thunks that record their evaluation, to check short-circuiting."""

    def __init__(self):
        self.seen = []

    def __call__(self, name, value):
        def thunk():
            self.seen.append(name)
            return value

        return thunk


@pytest.mark.parametrize("a, b", [(0, 5), (3, 5), ("", "x"), ([1], [])])
def test_and_or_return_the_deciding_operand_like_python(a, b):
    record = Recorder()
    assert ag__.and_(record("a", a), record("b", b)) == (a and b)
    assert record.seen == (["a", "b"] if a else ["a"])
    record = Recorder()
    assert ag__.or_(record("a", a), record("b", b)) == (a or b)
    assert record.seen == (["a"] if a else ["a", "b"])


def test_and_or_first_operand_may_be_a_value():
    assert ag__.and_(True, lambda: 7) == 7
    assert ag__.or_(0, lambda: 0.0, lambda: "last") == "last"


def test_and_or_on_eager_tensors_short_circuit():
    record = Recorder()
    false = constant(False)
    assert ag__.and_(lambda: false, record("b", constant(True))) is false
    assert record.seen == []


def test_not_and_chains_in_three_modes():
    def build(x):
        return (ag__.not_(x > 2), ag__.compare_chain(0, "<", lambda: x, "<=", lambda: 5),
                ag__.or_(lambda: x < 0, lambda: x > 4))

    for x in (-1, 3, 7):
        expected = (not x > 2, 0 < x <= 5, x < 0 or x > 4)
        assert all(tuple(bool(v) for v in mode) == expected for mode in in_three_modes(build, x))


def test_compare_chain_evaluates_each_operand_once_and_stops_early():
    record = Recorder()
    assert ag__.compare_chain(1, "<", record("b", 0), "<", record("c", 5)) is False
    assert ag__.compare_chain(1, "in", record("d", [1]), "is not", record("e", None)) is True
    assert record.seen == ["b", "d", "e"]


def test_symbolic_and_or_do_not_run_the_side_that_is_not_needed(capsys):
    with Graph().as_default() as graph:
        x = placeholder("int32", [])

        def noisy(name, value):
            def thunk():
                logging_ops.print_(name)
                return value(x)

            return thunk

        both = ag__.and_(lambda: x > 0, noisy("and-rhs", lambda v: v < 10))
        either = ag__.or_(lambda: x > 0, noisy("or-rhs", lambda v: v < -10))
    with Session(graph) as session:
        assert session.run([both, either], {x: -1}) == [False, False]
        assert capsys.readouterr().out == "or-rhs\n"
        assert session.run([both, either], {x: 5}) == [True, True]
        assert capsys.readouterr().out == "and-rhs\n"


def test_if_exp_in_three_modes():
    def build(x):
        return ag__.if_exp(x > 0, lambda: x * 2, lambda: x - 1, "x * 2 if x > 0 else x - 1")

    assert in_three_modes(build, 4) == (8, 8, 8)
    assert in_three_modes(build, -4) == (-5, -5, -5)


def test_if_exp_only_evaluates_the_chosen_side_in_python():
    record = Recorder()
    assert ag__.if_exp(constant(True), record("t", 1), record("f", 2), "1 if c else 2") == 1
    assert record.seen == ["t"]


def test_if_exp_dtype_mismatch_names_the_expression():
    with pytest.raises(TypeError, match="a if c else b"):
        staged(lambda x: ag__.if_exp(x > 0, lambda: 1, lambda: 1.5, "a if c else b"), 1)


def test_assert_stmt_in_python_is_assert():
    record = Recorder()
    assert ag__.assert_stmt(constant(True), record("msg", "no")) is None
    assert record.seen == []
    with pytest.raises(AssertionError, match="too small"):
        ag__.assert_stmt(1 > 2, lambda: "too small")
    with pytest.raises(AssertionError):
        ag__.assert_stmt(0, None)


def test_assert_stmt_symbolic_fails_at_run_time():
    with Graph().as_default() as graph:
        x = placeholder("int32", [])
        check = ag__.assert_stmt(x > 0, lambda: "x must be positive")
    with Session(graph) as session:
        session.run(check, {x: 1})
        with pytest.raises((InvalidArgumentError, RuntimeError), match="x must be positive"):
            session.run(check, {x: -1})


def test_in_a_test_position_and_or_decide_on_truth_values():
    # `if x <= 0 or n + 1:` with a Python int n: the operands' dtypes differ (bool, int32);
    # as a value that cannot be staged, as a condition only its truth matters.
    def build(x):
        n = 2
        return (ag__.or_(lambda: x <= 0, lambda: n + 1, test=True),
                ag__.and_(lambda: x > 0, lambda: n - 2, test=True))

    for x in (-1, 3):
        expected = (bool(x <= 0 or 2 + 1), bool(x > 0 and 2 - 2))
        assert all(tuple(bool(v) for v in mode) == expected for mode in in_three_modes(build, x))


def test_in_stages_as_any_element_equal():
    def build(t):
        return (ag__.compare_chain(2, "in", lambda: t), ag__.compare_chain(5, "not in", lambda: t))

    for values in ([1, 2, 3], [4, 5]):
        expected = (2 in values, 5 not in values)
        assert staged(build, values) == expected
        assert build(values) == expected


def test_once_runs_its_generator_to_the_one_value_once():
    seen = []
    thunk = ag__.once(seen.append(1) or len(seen) for _ in ag__.ONCE)
    assert seen == []  # lazy until the operator calls it
    assert ag__.and_(lambda: True, thunk) == 1
    assert seen == [1]
    with pytest.raises(RuntimeError, match="ran twice"):
        thunk()


def test_once_lets_a_stop_iteration_through_as_itself():
    it = iter(())
    with pytest.raises(StopIteration):
        ag__.or_(lambda: 0, ag__.once(next(it) for _ in ag__.ONCE))


def test_once_keeps_a_runtime_error_of_the_operand():
    def fail():
        raise RuntimeError("mine")

    with pytest.raises(RuntimeError, match="mine"):
        ag__.once(fail() for _ in ag__.ONCE)()
