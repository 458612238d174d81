"""A traced graph dies with its `ag.function`: what is computed from it (its gradient
graph, its kept Variable reads, its compiled XLA form) is kept on the graph
(`Graph.derived`), never in a module-level table that would keep it alive."""

import gc
import weakref

import pytest

import autograph_py as ag

V = ag.Variable(2.0)


@pytest.mark.parametrize("jit", [False, True], ids=["numpy runtime", "jit_compile"])
@pytest.mark.parametrize("assigns", [False, True], ids=["reads", "reads and assigns"])
def test_a_functions_graphs_die_with_it(jit, assigns):
    def body(x):
        if assigns:
            V.assign_add(0.0)
        return x * V * V

    f = ag.function(body, jit_compile=jit)
    x = ag.constant(1.5)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, [x, V])
    assert g[1].numpy() == pytest.approx(2 * 1.5 * 2.0)
    graph = weakref.ref(f.get_concrete_function(x).graph)
    del f, tape, y, g
    gc.collect()
    assert graph() is None


def test_what_is_derived_from_a_graph_is_declared_and_not_serialized():
    from autograph_py.runtime.graph import Graph

    f = ag.function(lambda x: x * V)
    x = ag.constant(1.5)
    with ag.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == pytest.approx(V.numpy())
    graph = f.get_concrete_function(x).graph
    derived = graph.derived
    assert derived.gradient_graph is not None or derived.gradient_graph_with_reads is not None
    made = []
    assert derived.once("inner_variables", lambda: made.append(1) or ("made",)) is not None
    before = derived.inner_variables
    assert derived.once("inner_variables", lambda: made.append(1) or ("again",)) is before
    with pytest.raises(AttributeError):
        derived.once("a fact nobody declared", tuple)
    rebuilt = Graph.from_dict(graph.as_dict())
    assert all(getattr(rebuilt.derived, slot) is None for slot in type(derived).__slots__)
