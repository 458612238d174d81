"""The executor: pruning (only needed kernels run), freeing intermediates, the generated
code, error reports.

Probe ops registered here record which kernels ran and which arrays are still alive, so
the tests observe the executor's behaviour instead of trusting its data structures.
"""

import re
import sys
import weakref

import numpy as np
import pytest
from autograph_py.runtime import dtypes
from autograph_py.runtime.control_flow import cond
from autograph_py.runtime.errors import InvalidArgumentError, OpError
from autograph_py.runtime.graph import Graph, name_scope
from autograph_py.runtime.ops import infer
from autograph_py.runtime.ops import math_ops as m
from autograph_py.runtime.ops.array_ops import unstack
from autograph_py.runtime.ops.core import constant, placeholder
from autograph_py.runtime.ops.reduction_ops import reduce_sum
from autograph_py.runtime.plan.executor import Plan
from autograph_py.runtime.registry import OpDef, apply, register, registered_names
from autograph_py.runtime.session import Session

RAN = []       # tags of probe kernels in the order they ran
ARRAYS = {}    # tag -> weakref to the array a TestMake kernel produced
ALIVE = {}     # tag -> whether that array was alive when TestAlive ran


def _probe(x, tag):
    RAN.append(tag)
    return x


def _make(x, tag):
    out = x + 0  # a fresh array nobody else references
    ARRAYS[tag] = weakref.ref(out)
    return out


def _alive(x, tag):
    ALIVE[tag] = ARRAYS[tag]() is not None
    return x


def _boom(x, error):
    raise error


if "TestProbe" not in registered_names():
    for _name, _kernel in [("TestProbe", _probe), ("TestMake", _make), ("TestAlive", _alive),
                           ("TestBoom", _boom)]:
        register(OpDef(_name, _kernel, infer.unary))


def probe(x, tag):
    return apply("TestProbe", [x], {"tag": tag})


@pytest.fixture(autouse=True)
def _clear_records():
    RAN.clear()
    ARRAYS.clear()
    ALIVE.clear()


def _line():
    return sys._getframe(1).f_lineno


# --- pruning ---------------------------------------------------------------------------------


def test_only_the_ops_a_fetch_needs_run():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        a = probe(x, "a")
        probe(x, "unused")
        z = probe(m.square(a), "z")
    with Session(g) as sess:
        assert sess.run(z, {x: 3.0}) == 9.0
    assert RAN == ["a", "z"]


def test_feeding_a_tensor_skips_its_producer_kernel():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        y = m.square(probe(x, "producer"))
        z = probe(m.add(y, 1.0), "z")
    with Session(g) as sess:
        assert sess.run(z, {y: 4.0}) == 5.0
    assert RAN == ["z"]


def test_a_fed_output_wins_over_its_op_when_another_output_is_needed():
    g = Graph()
    with g.as_default():
        first, second = unstack(constant([1.0, 2.0]))
    with Session(g) as sess:  # the op runs for `second`; `first` is the fed value
        assert sess.run([first, second], {first: 10.0}) == [10.0, 2.0]
        assert sess.run(m.add(first, second), {first: 10.0}) == 12.0


def test_a_pruned_branch_that_would_raise_does_not_run():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        broken = apply("TestBoom", [x], {"error": RuntimeError("must not run")})
        z = m.add(m.square(broken), 1.0)
    with Session(g) as sess:
        assert sess.run(z, {broken: 2.0}) == 5.0
        with pytest.raises(OpError, match="must not run"):
            sess.run(z, {x: 2.0})


# --- freeing ---------------------------------------------------------------------------------


def _make_square_check(fetch_made):
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [1000], name="x")
        made = apply("TestMake", [x], {"tag": "made"})
        checked = apply("TestAlive", [m.square(made)], {"tag": "made"})
    fetches = [made, checked] if fetch_made else [checked]
    with Session(g) as sess:
        sess.run(fetches, {x: np.ones(1000, np.float32)})
    return ALIVE["made"]


def test_an_intermediate_is_freed_after_its_last_use():
    assert _make_square_check(fetch_made=False) is False


def test_a_fetched_intermediate_is_kept():
    assert _make_square_check(fetch_made=True) is True


def test_plan_frees_each_dead_value_at_its_last_reader():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        a = m.square(x)
        b = m.add(a, a)
        c = m.multiply(b, a)   # last reader of a
        d = m.add(c, 1.0)
    plan = Plan(g, [d], (), [x])
    by_op = {step.op.name: step for step in plan.steps}
    a_name, b_name = by_op["Add"].inputs[0], by_op["Mul"].inputs[0]
    assert a_name in by_op["Mul"].frees and b_name in by_op["Mul"].frees
    assert a_name not in by_op["Add"].frees
    freed = [name for step in plan.steps for name in step.frees]
    assert len(freed) == len(set(freed))
    assert plan.fetch_names[0] not in freed


# --- the generated code ----------------------------------------------------------------------


def test_plan_code_names_values_after_their_ops_and_runs_as_printed():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [None], name="x")
        with name_scope("layer"):
            y = m.add(x, m.square(x))
        z = reduce_sum(y, axis=0)
    plan = Plan(g, [z], (), [x])
    assert "    layer_square = Square(x)\n" in plan.code
    assert "    layer_add = Add(x, layer_square)\n" in plan.code
    assert "sum = Sum(layer_add, axis=0, keepdims=False)" in plan.code
    assert plan.code.rstrip().endswith("return [sum]")
    assert not re.search(r"\bv\d+\b", plan.code)  # no slot numbers
    # The printed source is what runs: compiled again, it computes what numpy does.
    namespace = dict(plan.function.__globals__)
    exec(plan.code, namespace)
    value = np.array([1.0, -2.0, 3.0], np.float32)
    assert namespace["run"](None, [value])[0] == np.sum(value + value * value)


def test_session_code_is_the_source_of_the_plan_run_uses():
    g = Graph()
    with g.as_default():
        x = placeholder(dtypes.float32, [], name="x")
        y = m.square(x)
        z = m.add(y, 1.0)
    with Session(g) as sess:
        fed_x = sess.code(z, [x])
        assert "y = " not in fed_x and "square = Square(x)" in fed_x
        fed_y = sess.code({"z": z}, {y: 4.0})  # a feed_dict: its keys are the fed tensors
        # a rank-0 float add is an operator on numpy scalars (plan_expressions.py)
        assert "Square" not in fed_y and "add = square + const" in fed_y
        assert sess.run(z, {y: 4.0}) == 5.0
        assert len(sess._plans) == 2  # code() compiled the plans that run() uses


def test_generated_names_never_clash_with_each_other_or_the_function():
    g = Graph()
    with g.as_default():
        feeds = placeholder(dtypes.float32, [], name="feeds")
        ctx = m.square(feeds, name="ctx")
        clash = m.add(ctx, m.add(feeds, 1.0, name="Add"), name="add")
        out = m.add(clash, 0.0, name="1 odd-name")
    plan = Plan(g, [out], (), [feeds])
    assert plan.run(None, [np.float32(2.0)])[0] == 2.0 ** 2 + (2.0 + 1.0)
    names = [n for step in plan.steps for n in step.outputs]
    assert len(set(names)) == len(names)
    assert not {"feeds", "ctx"} & set(names)


# --- errors ----------------------------------------------------------------------------------


def test_op_error_names_the_op_and_the_line_that_created_it():
    g = Graph()
    with g.as_default():
        a = placeholder(dtypes.float32, [None, None], name="a")
        line = _line() + 1
        product = m.matmul(a, a, name="product")
    with Session(g) as sess:
        with pytest.raises(OpError) as info:
            sess.run(product, {a: np.ones((2, 3), np.float32)})
    message = str(info.value)
    assert "'product' (MatMul)" in message
    assert f"{__file__}:{line}" in message
    assert info.value.op is product.op


def test_invalid_argument_errors_get_the_op_and_line_appended():
    g = Graph()
    with g.as_default():
        x = constant(1.0)
        line = _line() + 1
        bad = apply("TestBoom", [x], {"error": InvalidArgumentError("value out of range")})
    with Session(g) as sess, pytest.raises(InvalidArgumentError) as info:
        sess.run(bad)
    assert "value out of range" in str(info.value)
    assert f"'{bad.op.name}' (TestBoom) created at {__file__}:{line}" in str(info.value)


def test_an_error_inside_a_branch_names_the_inner_op():
    g = Graph()
    with g.as_default():
        p = placeholder(dtypes.bool_, [], name="p")
        line = _line() + 1
        out = cond(p, lambda: apply("TestBoom", [constant(1.0)], {"error": KeyError("k")}),
                   lambda: constant(2.0))
    with Session(g) as sess:
        assert sess.run(out, {p: False}) == 2.0
        with pytest.raises(OpError) as info:
            sess.run(out, {p: True})
    assert info.value.op.type == "TestBoom"
    assert f"{__file__}:{line}" in str(info.value)
