"""`autograph graph -f Class.method`: a method needs an instance (issue 25, bug 11).

Named through its class, a method used to be traced with its first tensor in `self`'s
place ("missing a required argument: 'y'"). Now the command says, at the method's line,
that it needs an instance and how to give one; `--instance EXPR` gives one. The command
never constructs an object unasked: `__init__` below records each call in a file.
Oracle of the pictures: the same method traced in this process (tests/visualize).
"""

import pytest

import autograph_py as ag
from tests.cli.conftest import import_path, run_autograph
from tests.visualize.rendered import parse
from tests.visualize.traced import expected_ops

MODELS = '''\
import pathlib

import autograph_py as ag


class Scale:
    def __init__(self):
        pathlib.Path(__file__).with_name("constructed").write_text("Scale")
        self.w = ag.Variable(2.0)

    def step(self, x, y):  # step
        if x > 0:
            x = x * self.w
        return x + y

    @staticmethod
    def plain(x, y):
        return x - y


class Dense(ag.Module):
    def __init__(self, units, *, bias=True):
        super().__init__()
        if units < 1:
            raise ValueError(f"units must be positive, got {units}")  # raises
        self.units = units

    @ag.function
    def step(self, x):  # dense step
        return ag.reduce_sum(x) * self.units


class Ops:  # a namespace of plain functions: traced as they are
    def add(x, y):
        return x + y


class Odd:
    def step(this, x, y):  # odd step
        return x * y
'''


@pytest.fixture
def models(tmp_path):
    path = tmp_path / "models.py"
    path.write_text(MODELS)
    return path


def line_of(path, marker):
    lines = path.read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.endswith(f"# {marker}"))


def graph(path, *args):
    return run_autograph("graph", path, *args)


def one_line(result):
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr.rstrip("\n")


def constructed(path):
    return path.with_name("constructed").exists()


def traced_nodes(method, *specs):
    # As the command does: an ag.function is traced as it is.
    traced = method if hasattr(method, "get_concrete_function") else ag.function(method)
    graph = traced.get_concrete_function(*specs).graph
    return {node for node, _, _ in expected_ops(graph)}


SCALARS = ag.TensorSpec([], ag.float32)


def test_the_issues_command_says_a_method_needs_an_instance_and_how(models):
    result = graph(models, "-f", "Scale.step", "-s", "float32[], float32[]")
    assert result.returncode == 2
    assert one_line(result) == (
        f"{models}:{line_of(models, 'step')}: error: Scale.step is a method: tracing it "
        "needs an instance of Scale; give one with --instance \"Scale()\"")
    assert not constructed(models)


def test_every_signature_gets_the_same_message_never_self_as_a_tensor(models):
    # Three specs fill (self, x, y): tracing used to fail on `self.w` of a tensor.
    result = graph(models, "-f", "Scale.step", "-s", "float32[], float32[], float32[]")
    assert result.returncode == 2
    assert "error: Scale.step is a method" in one_line(result)


def test_an_instance_the_file_makes_is_named(models):
    models.write_text(MODELS + "\nmodel = Scale()\n")
    result = graph(models, "-f", "Scale.step", "-s", "float32[], float32[]")
    assert result.returncode == 2
    assert one_line(result).endswith(
        "needs an instance of Scale; name one the file makes (-f model.step), or give one "
        "with --instance \"Scale()\"")


def test_required_constructor_parameters_are_spelled_out_for_an_ag_function_method(models):
    result = graph(models, "-f", "Dense.step", "-s", "float32[None]")
    assert result.returncode == 2
    message = one_line(result)
    # The line of an ag.function is its decorator's, as for the ops its trace makes.
    assert message.startswith(f"{models}:{line_of(models, 'dense step') - 1}: error: ")
    assert message.endswith("instance of Dense; give one with --instance \"Dense(units=...)\"")


def test_a_first_parameter_not_named_self_is_a_method_when_only_an_instance_fits(models):
    result = graph(models, "-f", "Odd.step", "-s", "float32[], float32[]")
    assert result.returncode == 2
    assert one_line(result).startswith(
        f"{models}:{line_of(models, 'odd step')}: error: Odd.step is a method")


@pytest.mark.parametrize("name", ["Scale.plain", "Ops.add"])
def test_static_methods_and_namespace_functions_trace_as_functions(models, name):
    result = graph(models, "-f", name, "-s", "float32[], float32[]")
    assert result.returncode == 0, result.stderr
    module = import_path(models)
    owner, attribute = name.split(".")
    assert set(parse(result.stdout).nodes) == traced_nodes(
        getattr(getattr(module, owner), attribute), SCALARS, SCALARS)


def test_instance_draws_the_method_of_that_instance(models):
    result = graph(models, "-f", "Scale.step", "-s", "float32[], float32[]",
                   "--instance", "Scale()")
    assert result.returncode == 0, result.stderr
    assert constructed(models)  # asked for: --instance runs that code
    picture = parse(result.stdout)
    assert set(picture.nodes) == traced_nodes(import_path(models).Scale().step, SCALARS, SCALARS)
    assert any(name.endswith("/then") for name in picture.clusters)


def test_instance_with_arguments_reaches_an_ag_function_method(models):
    result = graph(models, "-f", "Dense.step", "-s", "float32[None]",
                   "--instance", "Dense(units=3)")
    assert result.returncode == 0, result.stderr
    dense = import_path(models).Dense(units=3)
    assert set(parse(result.stdout).nodes) == traced_nodes(
        dense.step, ag.TensorSpec([None], ag.float32))


@pytest.mark.parametrize(("name", "expr", "status", "message"), [
    ("Scale.step", "Scale(", 2, "--instance 'Scale(': column 6: '(' was never closed"),
    ("Scale.step", "Dense(2)", 2,
     "--instance 'Dense(2)' gave an object of type Dense, not an instance of Scale"),
    ("Scale.plain", "Scale()", 2,
     "--instance 'Scale()': Scale.plain is not a method named through its class; "
     "--instance gives the object for -f Class.method"),
    ("Dense.step", "Dense(0)", 1,
     "{path}:{raises}: --instance 'Dense(0)' raised ValueError: units must be positive, "
     "got 0"),
])
def test_instance_errors(models, name, expr, status, message):
    result = graph(models, "-f", name, "-s", "float32[], float32[]", "--instance", expr)
    assert result.returncode == status
    assert one_line(result) == message.format(path=models, raises=line_of(models, "raises"))
