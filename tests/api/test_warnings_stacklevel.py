"""`warnings.warn(..., stacklevel=n)` from converted code names what it names in the code as
written (issue 24, family 6): the frames of autograph_py (`converted_call`, operators,
`to_graph`'s wrapper, tracing) and the closures conversion generates (branch and loop
bodies, lazy operands) are not counted, and a line of generated code is the user's line.
The oracle is the function called as Python from the same line."""

import contextlib
import inspect
import warnings

import pytest

import autograph_py as ag
from tests.cli.fixtures.real_code_calls import (
    warn_caller,
    warn_here,
    warn_three_up,
)

pytestmark = pytest.mark.usefixtures("converted_path")


def warn_in_operands(x):
    return x > 0 and warnings.warn("in an operand", stacklevel=2) is None


def warn_in_a_ternary(x):
    return warnings.warn("in a ternary", stacklevel=2) if x > 0 else None


def warn_in_a_nested_function(x):
    def inner(v):
        if v > 0:
            warnings.warn("in a nested function", stacklevel=2)  # names the call below
        return v
    while x > 0:
        x = inner(x) - 1
    return x


def warn_past_the_stack(x):
    if x > 0:
        warnings.warn("past the stack", stacklevel=100)
    return x


ENTRIES = {
    # mode: (how the function is called, what it is called with)
    "python": (lambda f: f, lambda: 1),
    "to_graph": (ag.to_graph, lambda: 1),
    "eager": (ag.to_graph, lambda: ag.constant(1)),
    "graph": (ag.to_graph, lambda: ag.placeholder(ag.int32, shape=[])),
    "function": (ag.function, lambda: ag.constant(1)),
}


def _warnings_of(f, mode):
    """[(filename, lineno, message)] of the warnings calling `f` in `mode` gives, and the
    location of that call."""
    wrap, make_arg = ENTRIES[mode]
    called = wrap(f)
    graph = ag.Graph().as_default() if mode == "graph" else contextlib.nullcontext()
    with warnings.catch_warnings(record=True) as caught, graph:
        warnings.simplefilter("always")
        arg = make_arg()
        line = inspect.currentframe().f_lineno + 1
        called(arg)
    return [(w.filename, w.lineno, str(w.message)) for w in caught], (__file__, line)


@pytest.mark.parametrize("mode", ["to_graph", "eager", "graph", "function"])
@pytest.mark.parametrize("f", [warn_caller, warn_here, warn_three_up, warn_in_operands,
                               warn_in_a_ternary, warn_in_a_nested_function,
                               warn_past_the_stack])
def test_stacklevel_names_what_python_names(f, mode):
    expected, _ = _warnings_of(f, "python")
    assert _warnings_of(f, mode)[0] == expected


def test_the_oracle_names_the_callers_line_and_the_users_file():
    caught, (filename, line) = _warnings_of(warn_caller, "python")
    assert [w[:2] for w in caught] == [(filename, line)] * 2
    caught, _ = _warnings_of(warn_past_the_stack, "python")
    assert [w[:2] for w in caught] == [("sys", 1)]


def test_warnings_in_a_jax_trace_name_the_users_line():
    import jax  # noqa: PLC0415  (the [xla] extra)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jax.jit(ag.to_graph(warn_here))(1)
    location = inspect.getsourcefile(warn_here), inspect.getsourcelines(warn_here)[1] + 2
    assert [(w.filename, w.lineno) for w in caught] == [location]


def test_once_per_location_as_python_registers_it():
    converted = ag.to_graph(warn_caller)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            converted(1)
    assert [str(w.message) for w in caught] == ["inside a branch", "inside a loop"]


def test_a_warning_instance_and_a_wrong_category_as_in_python():
    def warn_instance(x):
        if x:
            warnings.warn(DeprecationWarning("old"), stacklevel=1)

    def warn_wrong_category(x):
        if x:
            warnings.warn("bad", category=int, stacklevel=1)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ag.to_graph(warn_instance)(1)
    assert [w.category for w in caught] == [DeprecationWarning]
    with pytest.raises(TypeError, match="category must be a Warning subclass, not 'type'"):
        warn_wrong_category(1)
    with pytest.raises(TypeError, match="category must be a Warning subclass, not 'type'"):
        ag.to_graph(warn_wrong_category)(1)
