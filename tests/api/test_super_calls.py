"""Zero-argument `super()` in converted code (issue 24, family 2): in a branch, in nested
loops, in the operand of `and`/`or`, in a classmethod, in `__init__` with a loop, in a
nested function, with the first parameter rebound; on Python values and staged (tensor
conditions and loops), against the method run as Python. The module `autograph convert`
prints is checked on the same fixture in tests/cli/test_cli_real_code.py."""

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode
from tests.cli.fixtures.real_code_calls import Child, Other, lone_super

pytestmark = pytest.mark.usefixtures("converted_path")


CASES = [
    (Child.scale, [(3,), (-3,)]),
    (Child.scale_in_loops, [(3, 3), (2, 0)]),
    (Child.scale_in_operands, [(2,), (-2,)]),
    (Child.scale_in_nested_function, [(4,), (-4,)]),
]


def _params():
    for fn, arg_tuples in CASES:
        for i, args in enumerate(arg_tuples):
            for mode in MODES + ("jax",):
                yield pytest.param(fn, args, mode, id=f"{fn.__name__}-{i}-{mode}")


@pytest.mark.parametrize("fn, args, mode", list(_params()))
def test_zero_argument_super_in_converted_bodies(fn, args, mode):
    instance = Child(2)
    assert_same(fn(instance, *args), run_mode(mode, fn, (instance, *args)))


def test_to_code_spells_out_the_class_cell_and_first_parameter():
    code = ag.to_code(Child.scale)
    assert "super(__class__, self).scale" in code and "super()" not in code


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_super_init_in_a_loop(mode):
    converted_init = ag.to_graph(Child.__init__)
    made = Child.__new__(Child)
    n = 3 if mode == "python" else ag.constant(3)
    converted_init(made, n)
    assert [int(i) for i in made.items] == Child(3).items


@pytest.mark.parametrize("n", [0, 2])
def test_super_in_a_classmethod(n):
    expected, made = Child.make(n), ag.to_graph(Child.make)(n)
    assert type(made) is type(expected)
    assert (made and made.items) == (expected and expected.items)


def test_the_first_parameter_is_read_where_super_runs():
    me, other = Child(1), Child(2)
    assert ag.to_graph(Child.scale_with_rebound_self)(me, other, 3) == (6, other)
    # Rebound to an instance of another class: Python's own TypeError.
    with pytest.raises(TypeError, match="obj must be an instance or subtype of type"):
        Child.scale_with_rebound_self(me, Other(1), 3)
    with pytest.raises(TypeError, match="obj must be an instance or subtype of type"):
        ag.to_graph(Child.scale_with_rebound_self)(me, Other(1), 3)


def test_super_outside_a_class_still_fails_as_in_python():
    # No `__class__` cell: left as written, a RuntimeError as in Python (whose message
    # there says the cell is missing; in a branch closure it says there are no arguments).
    with pytest.raises(RuntimeError, match="super()"):
        lone_super(1)
    with pytest.raises(RuntimeError, match="super()"):
        ag.to_graph(lone_super)(1)


def test_a_name_super_bound_in_the_function_is_left_alone():
    class Base:
        def m(self):
            return "base"

    class Derived(Base):
        def m(self, flag):
            def super():  # noqa: A001 -- the user's own `super`
                return Base()
            if flag:
                return super().m()
            return "none"

    assert "super(__class__" not in ag.to_code(Derived.m)
    assert ag.to_graph(Derived.m)(Derived(), True) == Derived().m(True) == "base"
