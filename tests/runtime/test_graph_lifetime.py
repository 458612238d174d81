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
