"""Private names (`self.__v`) in methods converted at run time are mangled as Python
mangles them in the class body (issue 24, real code: networkx's argmap reads
`self.__is_generator`): `to_graph`/`converted_call` compile the converted method outside
its class, where the compiler would not. Each repro runs converted in every mode it
applies to (tests/api/modes.py), against the method itself run as plain Python.
"""

import functools

import pytest
from autograph_py.converters import private_names

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

ALL_MODES = MODES + ("jax",)

__scale = 10  # a module's own private-looking global: never mangled outside a class


@pytest.fixture(autouse=True)
def _converted_path(monkeypatch):
    # Plain values must run the converted code, not the function as written.
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")


def _twice(f):
    @functools.wraps(f)
    def wrapper(*args):
        # Written outside any class: `__scale` is the module's, whatever `wraps` names it.
        return f(*args) * 2 + __scale  # noqa: F821 -- the module's `__scale`, unmangled
    return wrapper


class _Counter:
    def __init__(self):
        self.__base = 3

    def attribute_in_a_staged_branch(self, x):
        if x > 1:
            return self.__base + x
        return self.__base - x

    def private_local_read_by_a_closure(self, x):
        __total = x

        def doubled():
            return __total * 2

        for i in range(3):
            if x > i:
                __total += i
        return doubled()

    def private_parameter_with_a_default(self, x, __step=2):
        while x < 10:
            x += __step
        return x

    def nested_class_mangles_with_its_own_name(self, x):
        class __Inner:
            def __init__(self, v):
                self.__v = v

            def get(self):
                return self.__v

        if x > 0:
            return __Inner(x).get() + len(__Inner.__name__)
        return -len(__Inner.__name__)

    def imports_under_a_private_name(self, x):
        from os import path as __path
        if x > 0:
            return len(__path.sep) + x
        return -x

    @_twice
    def wrapped(self, x):
        return self.__base + x


def call_wrapped(counter, x):
    return counter.wrapped(x)


CASES = [
    (_Counter.attribute_in_a_staged_branch, [(0,), (3,)]),
    (_Counter.private_local_read_by_a_closure, [(0,), (2,)]),
    (_Counter.private_parameter_with_a_default, [(1,), (5,)]),
    (_Counter.nested_class_mangles_with_its_own_name, [(0,), (2,)]),
    (_Counter.imports_under_a_private_name, [(0,), (2,)]),
]


@pytest.mark.parametrize("fn, args, mode", [
    pytest.param(fn, args, mode, id=f"{fn.__name__}-{i}-{mode}")
    for fn, arg_tuples in CASES for i, args in enumerate(arg_tuples) for mode in ALL_MODES])
def test_converted_method_matches_python(fn, args, mode):
    counter = _Counter()
    assert_same(fn(counter, *args), run_mode(mode, fn, (counter,) + args))


@pytest.mark.parametrize("mode", ALL_MODES)
def test_a_wrapper_named_like_a_method_is_not_mangled(mode):
    # converted_call converts the wrapper itself, whose `__qualname__` is the method's.
    counter = _Counter()
    assert_same(call_wrapped(counter, 1), run_mode(mode, call_wrapped, (counter, 1)))


@pytest.mark.parametrize("qualname, expected", [
    ("f", None), ("A.f", "A"), ("A.f.<locals>.g", "A"), ("f.<locals>.g", None),
    ("f.<locals>.B.m", "B"), ("A.B.m", "B"), ("A.<lambda>", "A"),
    ("f.<locals>.<lambda>", None),
])
def test_the_class_of_a_qualname(qualname, expected):
    assert private_names.class_name_of(qualname) == expected


@pytest.mark.parametrize("name, class_name, expected", [
    ("__v", "A", "_A__v"), ("__v", "_A", "_A__v"), ("__v", "__", "__v"),
    ("__init__", "A", "__init__"), ("_v", "A", "_v"), ("__v_", "A", "_A__v_"),
])
def test_mangle_is_the_compilers(name, class_name, expected):
    assert private_names.mangle(name, class_name) == expected


def test_to_code_spells_private_names_as_the_compiled_method():
    code = ag.to_code(_Counter.attribute_in_a_staged_branch)
    assert "self._Counter__base" in code and "self.__base" not in code
