"""`to_graph` keeps what makes a function itself: globals, closure cells, defaults, `self`
binding, callables, partials, nested functions, lambdas, decorators.

Each function has a tensor `if` (or loop), so the graph mode really stages; every mode
is compared with the original run as plain Python.
"""

import functools
import inspect

import pytest

import autograph_py as ag
from tests.api.modes import assert_same, run_mode

MODES = ("python", "eager", "graph")

SCALE = 2


def uses_global(x):
    if x > 0:
        x = x * SCALE
    return x


@pytest.mark.parametrize("mode", MODES)
def test_global_changed_after_conversion_is_seen(mode, monkeypatch):
    ag.to_graph(uses_global)  # converted (and cached) while SCALE is 2
    monkeypatch.setattr(__import__(__name__, fromlist=["_"]), "SCALE", 5)
    assert_same(uses_global(3), run_mode(mode, uses_global, (3,)))
    assert run_mode("python", uses_global, (3,)) == 15


def make_counter():
    calls = 0

    def count(x):
        nonlocal calls
        calls += 1
        if x > 0:
            x = x + calls
        return x

    def read():
        return calls

    def write(value):
        nonlocal calls
        calls = value

    return count, read, write


def test_closure_cells_are_shared_both_ways():
    count, read, write = make_counter()
    converted = ag.to_graph(count)
    assert converted(1) == 2 and read() == 1      # the converted write is seen outside
    write(10)
    assert converted(1) == 12 and read() == 11    # an outside write is seen inside
    assert count(1) == 13                          # and by the original


@pytest.mark.parametrize("mode", MODES)
def test_closure_in_every_mode(mode):
    count, _, _ = make_counter()
    oracle, _, _ = make_counter()
    assert_same(oracle(4), run_mode(mode, count, (4,)))


def with_defaults(x, offset=1, *, factor=3):
    if x > 0:
        x = x * factor
    return x + offset


@pytest.mark.parametrize("mode", MODES)
def test_defaults_and_keyword_only_defaults(mode):
    assert_same(with_defaults(2), run_mode(mode, with_defaults, (2,)))
    converted = ag.to_graph(with_defaults)
    assert inspect.signature(converted) == inspect.signature(with_defaults)
    assert converted(2, factor=10, offset=0) == with_defaults(2, factor=10, offset=0)
    assert converted(-2, 7) == with_defaults(-2, 7)


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def scale(self, x):
        if x > 0:
            x = x * self.factor
        return x

    def __call__(self, x):
        return self.scale(x) + 1


@pytest.mark.parametrize("mode", MODES)
def test_bound_method_keeps_self(mode):
    scaler = Scaler(4)
    assert isinstance(ag.to_graph(scaler.scale), type(scaler.scale))
    assert_same(scaler.scale(3), run_mode(mode, scaler.scale, (3,)))


def test_unbound_method_takes_self_explicitly():
    converted = ag.to_graph(Scaler.scale)
    assert converted(Scaler(4), 3) == 12
    assert converted(Scaler(4), -3) == -3


@pytest.mark.parametrize("mode", MODES)
def test_callable_object(mode):
    scaler = Scaler(4)
    assert_same(scaler(3), run_mode(mode, scaler, (3,)))


@pytest.mark.parametrize("mode", MODES)
def test_partial_inside_converted_code(mode):
    def apply_partial(x):
        return functools.partial(with_defaults, factor=5)(x)

    assert_same(apply_partial(2), run_mode(mode, apply_partial, (2,)))


def test_partial_itself_is_rejected_with_a_clear_error():
    # A partial is not a function: convert its `func` (converted_call does that itself).
    with pytest.raises(TypeError, match="Python function, method or callable"):
        ag.to_graph(functools.partial(with_defaults, factor=5))


@pytest.mark.parametrize("mode", MODES)
def test_nested_function_and_lambda(mode):
    def outer(x):
        def inner(y):
            if y > 1:
                y = y - 1
            return y

        double = lambda v: v * 2  # noqa: E731 -- the lambda is the point of the test
        return double(inner(x))

    assert_same(outer(5), run_mode(mode, outer, (5,)))
    assert_same(outer(0), run_mode(mode, outer, (0,)))


@pytest.mark.parametrize("mode", MODES)
def test_lambda_converted_directly(mode):
    pick = lambda x: x * 2 if x > 0 else -x  # noqa: E731
    assert_same(pick(3), run_mode(mode, pick, (3,)))
    assert_same(pick(-3), run_mode(mode, pick, (-3,)))


def add_one_after(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) + 1

    return wrapper


@add_one_after
def decorated(x):
    if x > 0:
        x = x * 3
    return x


@pytest.mark.parametrize("mode", MODES)
def test_decorated_function(mode):
    # to_graph converts the wrapper (the decorator's `+ 1` is kept); converted_call then
    # converts the original it calls.
    assert_same(decorated(2), run_mode(mode, decorated, (2,)))
    # to_code looks through functools.wraps: it shows the decorated body, no decorator.
    code = ag.to_code(decorated)
    assert "def decorated(x):" in code and "@" not in code


def test_converted_function_keeps_metadata():
    converted = ag.to_graph(with_defaults)
    assert converted.__name__ == "with_defaults"
    assert converted.__wrapped__ is with_defaults
    assert ag.to_graph(converted) is converted  # converting twice is a no-op


def test_recursive_function_calls_itself_by_global_name():
    # The factory that builds the converted function must not capture its name.
    assert ag.to_graph(factorial)(5) == 120


def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def test_to_graph_of_an_ag_function_converts_the_python_function():
    def halve_positive(x):
        if x > 0:
            x = x / 2
        return x

    converted = ag.to_graph(ag.function(halve_positive))
    assert converted(8) == halve_positive(8)
    with ag.Graph().as_default():
        x = ag.placeholder(ag.float32, shape=())
        out = converted(x)
        assert out.op.type == "If"
        with ag.Session() as sess:
            assert sess.run(out, {x: -3.0}) == halve_positive(-3.0)


def _make_with_enclosing_default():
    scale = 3

    def scaled(x, factor=scale, *, ops: "annotation" = ag, offset: int = 0):  # noqa: F821
        if x > 0:
            x = ops.multiply(x, factor) if isinstance(x, ag.Tensor) else x * factor
        return x + offset

    return scaled


def test_defaults_and_annotations_are_not_evaluated_again():
    # `scale` is a local of the enclosing function (not a free variable of `scaled`) and
    # `ag` a global: the converted function must take the original's evaluated defaults.
    scaled = _make_with_enclosing_default()
    converted = ag.to_graph(scaled)
    assert converted(2) == scaled(2) == 6
    assert converted(-2, 5, offset=1) == scaled(-2, 5, offset=1)
    assert float(converted(ag.constant(2.0))) == float(scaled(ag.constant(2.0)))


def test_converting_adds_no_name_to_the_functions_module():
    import tests.cli.fixtures.real_code_calls as module  # noqa: PLC0415

    before = set(vars(module))
    ag.to_graph(module.warn_here)(0)
    assert set(vars(module)) == before  # `ag__` is bound in the converted closure only
