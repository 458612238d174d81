"""The module `autograph convert` prints gives Python's answers on calls real code makes
(issue 24): zero-argument `super()` in branch and loop bodies of methods, `pop` on
dicts, sets, deques and user classes, and `warnings.warn(..., stacklevel=2)`."""

import logging
import warnings

import pytest

from tests.cli.conftest import convert_and_import

# The conversion, not the copy as written that a call staging nothing runs
# (tests/converted_path.py).
pytestmark = pytest.mark.usefixtures("converted_path")


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    return convert_and_import("real_code_calls.py", tmp_path_factory.mktemp("real_code"))


@pytest.mark.parametrize("method, args", [
    ("scale", (3,)), ("scale", (-3,)), ("scale_in_loops", (3, 3)),
    ("scale_in_operands", (2,)), ("scale_in_operands", (-2,)),
    ("scale_in_nested_function", (4,)),
])
def test_zero_argument_super_in_methods(modules, method, args):
    original, converted = modules
    assert (getattr(converted.Child(2), method)(*args) ==
            getattr(original.Child(2), method)(*args))


def test_the_converted_methods_spell_super_out(modules):
    _, converted = modules
    with open(converted.__file__, encoding="utf-8") as f:
        text = f.read()
    assert "super(__class__, self).scale)(x)" in text and "super(__class__, cls)" in text


def test_zero_argument_super_in_init_and_classmethod(modules):
    original, converted = modules
    assert converted.Child(3).items == original.Child(3).items == [0, 1, 2]
    assert converted.Child.make(2).items == original.Child.make(2).items
    assert isinstance(converted.Child.make(2), converted.Child)


@pytest.mark.parametrize("name", ["pop_with_default", "pop_from_set_and_deque",
                                  "pop_from_user_class"])
@pytest.mark.parametrize("x", [2, -2])
def test_pop_and_append_on_what_is_not_a_list(modules, name, x):
    original, converted = modules
    assert getattr(converted, name)(x) == getattr(original, name)(x)


@pytest.mark.parametrize("d, key", [({"a": 1}, "a"), ({"a": 1}, "b")])
def test_dict_pop_of_an_argument(modules, d, key):
    original, converted = modules
    assert (converted.pop_key_of_a_dict_argument(dict(d), key) ==
            original.pop_key_of_a_dict_argument(dict(d), key))


def _warnings_of(f):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(1)
    return [(w.filename, w.lineno, str(w.message)) for w in caught]


@pytest.mark.parametrize("name", ["warn_caller", "warn_three_up"])
def test_warn_stacklevel_names_the_caller(modules, name):
    original, converted = modules
    expected = _warnings_of(getattr(original, name))
    assert {w[0] for w in expected} == {__file__}
    assert _warnings_of(getattr(converted, name)) == expected


def test_warn_stacklevel_1_names_the_converted_files_line(modules):
    original, converted = modules
    (filename, line, message), = _warnings_of(converted.warn_here)
    assert filename == converted.__file__ and message == "at the call"
    with open(filename, encoding="utf-8") as f:
        assert "(warnings.warn)('at the call', stacklevel=1)" in f.readlines()[line - 1]


def test_star_import_does_not_export_the_operators(modules):
    original, converted = modules
    imported = {}
    exec(f"from {converted.__name__} import *", imported)  # the statement under test
    expected = {}
    exec(f"from {original.__name__} import *", expected)
    assert imported.keys() == expected.keys()
    # The one name the converted module adds: a dunder, bound to the operators, so code
    # that lists a module's names but its dunders (CPython's test_operator) meets none.
    assert "__ag__" in vars(converted) and "__ag__" not in vars(original)
    assert ({n for n in vars(converted) if not n.startswith("__")}
            == {n for n in vars(original) if not n.startswith("__")})


def _records_of(logger_name, f, *args):
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger(logger_name)
    logger.addHandler(handler)
    try:
        f(*args)
    finally:
        logger.removeHandler(handler)
    return records


def test_logging_names_the_function_and_line_that_logged(modules):
    original, converted = modules
    expected, = _records_of("real_code_calls", original.log_in_a_branch, 2)
    got, = _records_of("real_code_calls", converted.log_in_a_branch, 2)
    assert (got.funcName, got.pathname) == (expected.funcName, converted.__file__)
    with open(converted.__file__, encoding="utf-8") as f:
        assert "_LOG.warning)('positive %s', x)" in f.readlines()[got.lineno - 1]


def test_a_namedtuple_made_in_a_loop_belongs_to_the_module(modules):
    original, converted = modules
    assert original.record_type_in_a_loop(2) == [(original.__name__, 0),
                                                 (original.__name__, 1)]
    assert converted.record_type_in_a_loop(2) == [(converted.__name__, 0),
                                                  (converted.__name__, 1)]
