"""`ag.Module` (issue 25): names and name scopes as TensorFlow's `tf.Module`; Variables
and submodules found through attributes, lists, tuples and dicts (nested), each once, in
TensorFlow's order; Variables made by an `ag.function` method on its first call; a
GradientTape over `module.trainable_variables`."""

import numpy as np
import pytest

import autograph_py as ag


class Dense(ag.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = ag.Variable(np.ones((n_in, n_out), np.float32), name="w")
        self.b = ag.Variable(np.zeros(n_out, np.float32), name="b")

    def __call__(self, x):
        with self.name_scope:
            return ag.matmul(x, self.w) + self.b


class MLPBlock(ag.Module):
    def __init__(self, sizes, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.layers = [Dense(n_in, n_out) for n_in, n_out in zip(sizes, sizes[1:])]

    def __call__(self, x):
        with self.name_scope:
            for layer in self.layers:
                x = layer(x)
        return x


@pytest.mark.parametrize("cls_name, name", [
    ("Module", "module"), ("Dense", "dense"), ("MLPBlock", "mlp_block"),
    ("MyHTTPModel2D", "my_http_model2_d"), ("simple", "simple"),
])
def test_the_default_name_is_the_class_name_in_snake_case(cls_name, name):
    cls = type(cls_name, (ag.Module,), {})
    assert cls().name == name
    assert cls(name="given").name == "given"


@pytest.mark.parametrize("bad", ["has space", "1st", "a/b", ""])
def test_a_name_must_be_a_python_identifier(bad):
    with pytest.raises(ValueError, match="not a valid module name"):
        ag.Module(name=bad)


def test_name_scopes_nest_where_modules_are_made():
    block = MLPBlock([2, 3, 1])
    assert block.name_scope.name == "mlp_block/"
    assert [layer.name_scope.name for layer in block.layers] == ["mlp_block/dense/"] * 2
    with block.name_scope as scope:
        assert scope == "mlp_block/"
        inner = ag.Module(name="inner")
    assert inner.name_scope.name == "mlp_block/inner/"
    assert ag.Module(name="outside").name_scope.name == "outside/"


def test_name_scopes_name_the_ops_of_a_graph():
    block = MLPBlock([2, 3, 1])
    with ag.Graph().as_default() as graph:
        x = ag.placeholder(ag.float32, (None, 2))
        with ag.name_scope("model"):
            block(x)  # each module re-enters its own whole scope
        names = [op.name for op in graph.get_operations() if op.type == "MatMul"]
    assert names == ["mlp_block/dense/MatMul", "mlp_block/dense/MatMul_1"]


def test_a_subclass_that_skips_super_init_still_has_a_name():
    class Bare(ag.Module):
        def __init__(self):
            self.v = ag.Variable(1.0)

    bare = Bare()
    assert bare.name == "bare" and bare.name_scope.name == "bare/"
    assert bare.variables == (bare.v,)


def test_variables_are_found_through_nested_structures_in_tensorflows_order():
    m = ag.Module()
    v = {name: ag.Variable(0.0, name=name) for name in "abcdefgh"}
    m.zeta = v["a"]
    m.alpha = [v["b"], (v["c"], {"y": v["d"], "x": [v["e"]]})]
    m.mid = {"k2": v["f"], "k1": (v["g"],)}
    m.frozen = ag.Variable(0.0, trainable=False, name="frozen")
    m.not_state = [1, "text", None, np.zeros(2)]
    # Attributes by name; in each value, lists and tuples in order, dicts by sorted key.
    order = [v["b"], v["c"], v["e"], v["d"], m.frozen, v["g"], v["f"], v["a"]]
    assert list(m.variables) == order
    assert list(m.trainable_variables) == [x for x in order if x is not m.frozen]
    assert m.non_trainable_variables == (m.frozen,)
    assert isinstance(m.variables, tuple)


def test_a_module_comes_before_its_submodules_and_each_is_walked_depth_first():
    root, left, right, leaf = (ag.Module(name=n) for n in ("root", "left", "right", "leaf"))
    root.w = ag.Variable(1.0, name="root_w")
    root.children = {"b": right, "a": left}
    left.w = ag.Variable(2.0, name="left_w")
    left.leaf = leaf
    leaf.w = ag.Variable(3.0, name="leaf_w")
    right.w = ag.Variable(4.0, name="right_w")
    assert root.submodules == (left, right, leaf)
    assert root.variables == (root.w, left.w, leaf.w, right.w)
    assert left.submodules == (leaf,) and leaf.submodules == ()


def test_shared_objects_come_once_and_cycles_end():
    shared = ag.Variable(1.0, name="shared")
    a, b = ag.Module(name="a"), ag.Module(name="b")
    a.first, a.second, a.in_list = shared, shared, [shared, b]
    b.back, b.same = a, shared  # a cycle, and the Variable again
    b.own = ag.Variable(2.0, name="own")
    a.itself = a
    assert a.variables == (shared, b.own)
    assert a.submodules == (b,)
    assert b.submodules == (a,)
    assert b.variables == (b.own, shared)  # b's attributes first: back (a module), own, same


def test_submodules_follow_tensorflows_example():
    a, b, c = ag.Module(), ag.Module(), ag.Module()
    a.b = b
    b.c = c
    assert list(a.submodules) == [b, c]
    assert list(b.submodules) == [c]
    assert list(c.submodules) == []


def test_dicts_with_keys_of_several_types_are_walked_and_unsortable_ones_named():
    m = ag.Module()
    m.table = {"two": ag.Variable(2.0), 1: ag.Variable(1.0), (3,): ag.Variable(3.0)}
    # Keys of several types sort by type name, then by key (runtime/nest.py).
    assert m.variables == (m.table[1], m.table["two"], m.table[(3,)])
    m.bad = {object(): 1, object(): 2}  # keys that cannot be sorted
    with pytest.raises(ValueError, match="Error processing property 'bad'"):
        m.variables  # noqa: B018


class LazyLinear(ag.Module):
    """Keras's build pattern: the weights are made when the first input is seen."""

    def __init__(self, units):
        super().__init__()
        self.units = units
        self.w = None

    @ag.function
    def __call__(self, x):
        if self.w is None:
            self.w = ag.Variable(ag.random.normal((x.shape[-1], self.units)), name="w")
            self.b = ag.Variable(ag.zeros((self.units,)), name="b")
        return ag.matmul(x, self.w) + self.b


def test_variables_made_by_a_function_method_on_its_first_call_are_found():
    layer = LazyLinear(2)
    assert layer.variables == ()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = layer(ag.constant(x))
    assert layer.trainable_variables == (layer.b, layer.w)
    np.testing.assert_allclose(y.numpy(), x @ layer.w.numpy() + layer.b.numpy(), rtol=1e-6)
    layer(ag.constant(x[:1]))  # a later trace makes nothing new
    assert layer.variables == (layer.b, layer.w)


def test_a_tape_gives_gradients_for_trainable_variables_in_and_out_of_functions():
    block = MLPBlock([3, 4, 2])
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)

    def loss_and_grads(x):
        with ag.GradientTape() as tape:
            loss = ag.reduce_sum(ag.square(block(x)))
        return loss, tape.gradient(loss, block.trainable_variables)

    eager_loss, eager_grads = loss_and_grads(ag.constant(x))
    traced_loss, traced_grads = ag.function(loss_and_grads)(ag.constant(x))
    assert len(eager_grads) == len(block.trainable_variables) == 4
    # numpy oracle: y = (x W0 + b0) W1 + b1; d sum(y^2) / d b1 = sum over rows of 2y
    (b0, w0), (b1, w1) = [layer.trainable_variables for layer in block.layers]
    h = x @ w0.numpy() + b0.numpy()
    y = h @ w1.numpy() + b1.numpy()
    np.testing.assert_allclose(eager_loss.numpy(), np.sum(y * y), rtol=1e-6)
    np.testing.assert_allclose(eager_grads[2].numpy(), np.sum(2 * y, axis=0), rtol=1e-6)
    np.testing.assert_allclose(eager_grads[3].numpy(), h.T @ (2 * y), rtol=1e-6)
    for e, t in zip(eager_grads, traced_grads):
        np.testing.assert_allclose(t.numpy(), e.numpy(), rtol=1e-6)
    np.testing.assert_allclose(traced_loss.numpy(), eager_loss.numpy(), rtol=1e-6)
