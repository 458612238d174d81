"""ag.saved_model round trips in this process: each loaded object is run beside the
original it was saved from (the oracle), eagerly and from inside an ag.function."""

import numpy as np
import pytest

import autograph_py as ag
from tests.saved_model.models import Counter, Nested, TwoSignatures


def _value(x):
    return np.asarray(x).tolist()


def _same(a, b):
    assert ag.nest.map_structure(_value, a) == ag.nest.map_structure(_value, b)


def _saved(obj, tmp_path, **kwargs):
    ag.saved_model.save(obj, str(tmp_path / "model"), **kwargs)
    return ag.saved_model.load(str(tmp_path / "model"))


INPUTS = [[1.0, 2.0, 3.0], [4.0, -2.0, 20.0, 1.0], [], [0.25]]


def test_a_module_with_variables_and_staged_loops_runs_as_the_original(tmp_path):
    original = Counter()
    original(ag.constant([1.0]))  # state changed before saving: the saved values are these
    loaded = _saved(original, tmp_path)
    assert [v.name for v in loaded.variables] == [v.name for v in original.variables]
    _same([v.numpy() for v in loaded.variables], [v.numpy() for v in original.variables])
    for x in INPUTS:
        _same(loaded(ag.constant(x, ag.float32)), original(ag.constant(x, ag.float32)))
        _same(loaded.steps, original.steps)
        _same(loaded.scale, original.scale)
    # The one function with an input_signature is the default signature.
    outputs = loaded.signatures["serving_default"](x=ag.constant([2.0, 3.0]))
    _same(outputs, {"output_0": original(ag.constant([2.0, 3.0]))})


def test_loaded_variables_are_variables_assignable_and_trainable(tmp_path):
    original, = [Counter()]
    loaded = _saved(original, tmp_path)
    loaded.scale.assign(5.0)
    original.scale.assign(5.0)
    _same(loaded(ag.constant([1.0, 2.0])), original(ag.constant([1.0, 2.0])))
    assert [v.name for v in loaded.trainable_variables] == \
        [v.name for v in original.trainable_variables]
    assert isinstance(loaded.scale, ag.Variable)


def test_gradients_flow_through_a_loaded_function_to_its_inputs_and_variables(tmp_path):
    original = TwoSignatures()
    loaded = _saved(original, tmp_path)
    x = ag.constant([[3.0, 4.0], [1.0, 0.0]])
    grads = []
    for model in (original, loaded):
        with ag.GradientTape() as tape:
            tape.watch(x)
            y = ag.reduce_sum(model.norms(x)["norm"] ** 2)
        grads.append(tape.gradient(y, [x, model.bias]))
    _same(grads[0], grads[1])


def test_nested_control_flow_several_traces_and_python_arguments(tmp_path):
    original = Nested()
    x2, x3 = ag.constant([1.0, -1.0]), ag.constant([0.5, 2.0])
    original.run(x2)
    original.run(x2, square=True)
    original.run(x3 * 30)
    loaded = _saved(original, tmp_path)
    assert len(loaded.run.concrete_functions()) == 2
    for x, square in [(x2, False), (x2, True), (x3 * 30, False), (x3, True)]:
        _same(loaded.run(x, square=square), original.run(x, square=square))
    _same(loaded.run(x3), original.run(x3))   # the default, left out as when traced
    assert len(loaded.weights) == 2 and loaded.inner.steps.numpy() == original.inner.steps.numpy()
    with pytest.raises(ValueError, match=r"no trace that takes these arguments(.|\n)*square"):
        loaded.run(x2, square="yes")
    with pytest.raises(ValueError, match="must be compatible with"):
        loaded.run(ag.constant([1, 2]))


def test_several_signatures_take_keywords_and_return_named_outputs(tmp_path):
    original = TwoSignatures()
    loaded = _saved(original, tmp_path, signatures={"norms": original.norms,
                                                     "gcd": original.gcd.get_concrete_function()})
    assert sorted(loaded.signatures) == ["gcd", "norms"]
    points = np.array([[3.0, 4.0], [6.0, 8.0]], np.float32)
    _same(loaded.signatures["norms"](points=points), original.norms(points))
    _same(loaded.signatures["gcd"](a=ag.constant(84), b=ag.constant(36)),
          {"output_0": original.gcd(ag.constant(84), ag.constant(36))})
    norms = loaded.signatures["norms"]
    assert list(norms.structured_input_signature[1]) == ["points"]
    assert list(norms.structured_outputs) == ["norm"]
    with pytest.raises(TypeError, match="keyword arguments only"):
        norms(points)
    with pytest.raises(TypeError, match=r"missing \['points'\]"):
        norms(x=points)


def test_a_single_function_and_an_object_with_function_attributes(tmp_path):
    v = ag.Variable(3, name="offset")

    @ag.function(input_signature=[ag.TensorSpec([None], ag.int32)])
    def shift(x):
        return x + v

    loaded = _saved(shift, tmp_path / "fn")
    _same(loaded(ag.constant([1, 2])), shift(ag.constant([1, 2])))
    _same(loaded.signatures["serving_default"](x=[5]), {"output_0": shift(ag.constant([5]))})
    assert [w.name for w in loaded.variables] == ["offset"]

    class Holder:  # not an ag.Module: its ag.function attributes are saved
        pass

    holder = Holder()
    holder.shift = shift
    holder.double = ag.function(lambda x: x * 2)
    holder.double(ag.constant(2.5))
    holder.note = "not saved"
    restored = _saved(holder, tmp_path / "obj")
    _same(restored.double(ag.constant(4.0)), holder.double(ag.constant(4.0)))
    _same(restored.shift(ag.constant([0])), shift(ag.constant([0])))
    assert not hasattr(restored, "note")
    # TensorFlow's rule: the one root function with an input_signature is the default.
    _same(restored.signatures["serving_default"](x=[7]), {"output_0": shift([7])})


def test_a_loaded_function_called_inside_an_ag_function_is_inlined(tmp_path):
    original = Counter()
    loaded = _saved(original, tmp_path)

    def twice(model):
        @ag.function
        def step(x):
            return model(x) + model(x * 2.0)
        return step

    theirs, ours = twice(original), twice(loaded)
    for x in INPUTS[:2]:
        _same(ours(ag.constant(x)), theirs(ag.constant(x)))
        _same(loaded.steps, original.steps)
    graph = ours.get_concrete_function(ag.constant([1.0])).graph
    graph.lint()  # raises on a malformed graph
    assert ag.Graph.from_dict(graph.as_dict()).as_text() == graph.as_text()


def test_a_gradient_inside_an_ag_function_through_a_loaded_function(tmp_path):
    original = TwoSignatures()
    loaded = _saved(original, tmp_path)

    def gradient_of(model):
        @ag.function
        def grad(x):
            with ag.GradientTape() as tape:
                y = ag.reduce_sum(model.norms(x)["norm"])
            return tape.gradient(y, model.bias)
        return grad

    x = ag.constant([[1.0, 1.0], [2.0, 0.0]])
    _same(gradient_of(loaded)(x), gradient_of(original)(x))


def test_saving_refuses_what_it_cannot_write(tmp_path):
    class Model(ag.Module):
        @ag.function
        def f(self, x, table):
            return x

    model = Model()
    model.f(ag.constant(1.0), table=frozenset({1}))
    with pytest.raises(ValueError, match="a saved function takes tensors"):
        ag.saved_model.save(model, str(tmp_path / "m"))
    with pytest.raises(ValueError, match="input_signature or a ConcreteFunction"):
        ag.saved_model.save(model, str(tmp_path / "m"), signatures=model.f)


def test_saving_refuses_a_trace_that_returns_what_it_cannot_write(tmp_path):
    class Model(ag.Module):
        @ag.function
        def f(self, x):
            return x, frozenset({1})

    model = Model()
    model.f(ag.constant(1.0))
    with pytest.raises(ValueError, match="it returns frozenset.*a saved function returns tensors"):
        ag.saved_model.save(model, str(tmp_path / "m"))
